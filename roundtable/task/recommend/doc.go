// Package recommend is the RoundTable recommendation task: three agents
// predict a MovieLens-100k user's rating (1..5) of a movie, each seeing one
// table of evidence.
//
// # Data
//
// Load reads the MovieLens-100k files from a directory the user gives
// (u.data, u.item, u.user, u1.base, u1.test, and u.genre, u.occupation and
// u.info when present); the data set's licence forbids redistribution, so
// it is never committed and tests use WriteSynthetic, which writes a small
// set with latent tastes in the same formats and with every quirk of the
// real files: Latin-1 titles, release days written "01-Jan-1995" and
// "4-Feb-1971", the "unknown" movie 267 with empty dates and URL, a title
// under two IDs, postcodes as zips, tab-separated ratings, u.genre's
// trailing blank line. u.item is decoded to UTF-8. Errors name the file and
// line.
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
// deviations of the most similar raters of the movie). The paper's strong
// baseline is Behera & Nain (2023), collaborative filtering with temporal
// features; KNN uses no timestamps, so it is a weaker stand-in, named as
// such wherever it is printed.
//
// # Without a model
//
// BaselineAgents seats model-free PredictorAgents that deliberate through
// the whole protocol: the BasicInfo seat holds "always 4", UserHistory the
// user's mean rating, MovieHistory the KNN prediction; each says its
// estimate, proposes it in whole stars and votes by distance from it.
//
// # Ground truth in the log
//
// Task.Spec puts the user and movie in the table's task parameters and the
// true rating in TaskSpec.Private, which only the organiser's export after
// the table ends may show; CaseOf reads them back, so a run is re-scored
// from its log alone.
package recommend
