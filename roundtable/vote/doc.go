// Package vote implements the social-choice rules a RoundTable uses to pick a
// decision from the participants' ballots.
//
// The package is pure: no I/O, no clocks, no global state. Every total is an
// exact rational (math/big), so ties are ties and never an artefact of
// floating-point rounding.
//
// A Profile holds the candidates, the number of participants N and the
// ballots. Tally applies a Rule to it and returns a Result. The conventions
// below hold for every rule:
//
//   - N is max(Profile.Participants, number of distinct non-blank voter
//     names among all ballots, valid or not). A Participants value below the
//     number of voters is therefore not an error: extra voters raise N.
//   - Ballots are processed in order. An invalid ballot is rejected (it lands
//     in Result.Rejected with a reason for the voter) and never counted. If a
//     voter casts several valid ballots, the last one counts and the earlier
//     ones are superseded (Result.Superseded); a later invalid ballot does not
//     cancel an earlier valid one.
//   - An abstaining ballot is valid; it is counted in Result.Abstained and
//     supports no candidate. Under unanimous and majority it still counts
//     against every candidate, because those rules count all N participants.
//   - With no counted ballot there is no winner. Under cumulative and
//     approval, a top total of zero means nobody received support: no winner.
//   - A tie for first is settled by the TiePolicy: defer (no winner, the
//     paper's behaviour), random (seeded, deterministic) or incumbent.
//     Unanimous and majority cannot tie.
//   - Voters do not have to be on any participant list: membership is the
//     moderator's business, not this package's.
package vote
