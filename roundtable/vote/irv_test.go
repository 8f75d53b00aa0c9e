package vote_test

import (
	"reflect"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func checkRounds(t *testing.T, got, want []vote.Round) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Rounds = %+v\nwant %+v", got, want)
	}
}

func TestTallyInstantRunoff(t *testing.T) {
	abcd := []string{"A", "B", "C", "D"}
	runTallyCases(t, vote.InstantRunoff, []tallyCase{
		{name: "first-round majority wins",
			ballots: []vote.Ballot{ranking("v1", "A"), ranking("v2", "A", "B"), ranking("v3", "B")},
			winner:  "A", reason: "A wins in round 1 with 2 of 3 continuing ballots", counted: 3,
			totals: map[string]string{"A": "2", "B": "1", "C": "0"}, ranking: []string{"A", "B", "C"},
			checkRounds: true, rounds: []vote.Round{
				{Votes: map[string]int{"A": 2, "B": 1, "C": 0}, Eliminated: []string{}}}},
		{name: "the fewest-votes candidate's ballots transfer",
			ballots: []vote.Ballot{ranking("v1", "A", "B"), ranking("v2", "A", "B"), ranking("v3", "B", "A"),
				ranking("v4", "C", "B"), ranking("v5", "C", "B")},
			winner: "A", reason: "A wins in round 2 with 3 of 5 continuing ballots", counted: 5,
			totals: map[string]string{"A": "3", "B": "1", "C": "2"}, ranking: []string{"A", "C", "B"},
			checkRounds: true, rounds: []vote.Round{
				{Votes: map[string]int{"A": 2, "B": 1, "C": 2}, Eliminated: []string{"B"}},
				{Votes: map[string]int{"A": 3, "C": 2}, Eliminated: []string{}}}},
		{name: "all tied for last are eliminated together", candidates: abcd,
			ballots: []vote.Ballot{ranking("v1", "A"), ranking("v2", "A"), ranking("v3", "B", "A"),
				ranking("v4", "C", "A"), ranking("v5", "D", "B")},
			winner: "A", reason: "A wins in round 2 with 4 of 4 continuing ballots", counted: 5,
			ranking:     []string{"A", "B", "C", "D"},
			checkRounds: true, rounds: []vote.Round{
				{Votes: map[string]int{"A": 2, "B": 1, "C": 1, "D": 1}, Eliminated: []string{"B", "C", "D"}},
				{Votes: map[string]int{"A": 4}, Exhausted: 1, Eliminated: []string{}}}},
		{name: "exhausted ballots drop and a final tie is deferred",
			ballots: []vote.Ballot{ranking("v1", "A"), ranking("v2", "A"), ranking("v3", "B"),
				ranking("v4", "C"), ranking("v5", "C", "B")},
			tied: []string{"A", "C"}, reason: "tie between A and C, deferred", counted: 5,
			checkRounds: true, rounds: []vote.Round{
				{Votes: map[string]int{"A": 2, "B": 1, "C": 2}, Eliminated: []string{"B"}},
				{Votes: map[string]int{"A": 2, "C": 2}, Exhausted: 1, Eliminated: []string{}}}},
		{name: "final tie broken at random", opt: vote.Options{Tie: vote.TieRandom, Seed: 7},
			ballots: []vote.Ballot{ranking("v1", "A"), ranking("v2", "B")},
			tied:    []string{"A", "B"}, winner: "A", reason: "tie between A and B, broken at random (seed 7)", counted: 2},
		{name: "no votes gives none", ballots: []vote.Ballot{abstain("v1")}, abstained: 1,
			reason: "no votes were counted", checkRounds: true},
		{name: "repeated candidate is rejected",
			ballots: []vote.Ballot{ranking("v1", "B", "A", "B"), ranking("v2", "C")},
			winner:  "C", reason: "C wins in round 1 with 1 of 1 continuing ballots", counted: 1,
			rejected: []vote.Rejection{{Voter: "v1", Reason: "candidate B ranked twice"}}},
	})
}
