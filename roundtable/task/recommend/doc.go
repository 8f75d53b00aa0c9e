// Package recommend is the RoundTable recommendation task: three agents
// predict a MovieLens-100k user's rating (1..5) of a movie, each seeing one
// table of evidence.
//
// # Data
//
// Load reads the MovieLens-100k files from a directory the user gives
// (u.data, u.item, u.user, u1.base, u1.test); the data set's licence forbids
// redistribution, so it is never committed and tests use WriteSynthetic,
// which writes a small set with latent tastes in the same formats. u.item is
// Latin-1 and is decoded to UTF-8. Errors name the file and line.
//
// # Tables
//
// For a Case (a user, a movie and the true rating from u1.test) Tables
// builds the paper's three tables from the training split u1.base only:
// basicInfo (the user's demographics and the movie's title, release date
// and genres), userHistory (the user's other ratings, most recent first)
// and movieHistory (other users' ratings of the movie, most similar user
// first). Similarity is the cosine of the users' factors in a non-negative
// matrix factorisation of the training matrix (Factorize: Lee–Seung
// multiplicative updates on the observed entries only, seeded, so the same
// data and options always give the same factors). Tables are capped at
// DefaultRows rows.
//
// # Task
//
// Task implements roundtable.Task, StructuredTask and PrivateBriefer:
// participant i is told table i mod 3. A proposal is a whole-number rating
// from 1 to 5, as Data {"rating": 4} or as text "4" or "rating 4"; 3.5,
// 0, 6 and words are invalid. Half stars are refused because MovieLens
// ratings are whole stars and merging candidates needs a small key space.
//
// # Metrics
//
// MAE and RMSE score predictions; PerRound scores a run round by round. A
// case without a decision at a round is scored as the "always 4" baseline
// would be (the fallback is a parameter) and reported in Coverage, so
// rounds are comparable and an undecided table is neither free nor fatal.
// The baselines are AlwaysFour and KNN, a user-based k-nearest-neighbour
// model over NMF similarity (user mean plus the similarity-weighted
// deviations of the most similar raters of the movie).
package recommend
