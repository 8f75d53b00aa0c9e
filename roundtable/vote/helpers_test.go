package vote_test

import (
	"math/big"
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

var abc = []string{"A", "B", "C"}

func choice(v, c string) vote.Ballot { return vote.Ballot{Voter: v, Choice: c} }
func abstain(v string) vote.Ballot   { return vote.Ballot{Voter: v, Abstain: true} }
func ranking(v string, r ...string) vote.Ballot {
	return vote.Ballot{Voter: v, Ranking: r}
}
func approve(v string, a ...string) vote.Ballot {
	return vote.Ballot{Voter: v, Approve: a}
}
func scores(v string, s map[string]int) vote.Ballot { return vote.Ballot{Voter: v, Scores: s} }
func points(v string, p map[string]int) vote.Ballot { return vote.Ballot{Voter: v, Points: p} }

// tallyCase is one table row: a profile, options and the expected outcome.
type tallyCase struct {
	name        string
	n           int
	candidates  []string // default abc
	incumbent   string
	ballots     []vote.Ballot
	opt         vote.Options
	winner      string
	tied        []string
	reason      string
	totals      map[string]string // exact, as big.Rat strings; nil = not checked
	counted     int
	abstained   int
	superseded  int
	rejected    []vote.Rejection
	ranking     []string // nil = not checked
	checkRounds bool
	rounds      []vote.Round
}

func runTallyCases(t *testing.T, rule vote.Rule, cases []tallyCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cands := tc.candidates
			if cands == nil {
				cands = abc
			}
			p := vote.Profile{Participants: tc.n, Candidates: cands, Incumbent: tc.incumbent, Ballots: tc.ballots}
			res, err := vote.Tally(rule, p, tc.opt)
			if err != nil {
				t.Fatalf("Tally: %v", err)
			}
			checkResult(t, res, tc)
		})
	}
}

func checkResult(t *testing.T, res vote.Result, tc tallyCase) {
	t.Helper()
	if res.Winner != tc.winner {
		t.Errorf("Winner = %q, want %q", res.Winner, tc.winner)
	}
	if !slices.Equal(res.Tied, tc.tied) {
		t.Errorf("Tied = %q, want %q", res.Tied, tc.tied)
	}
	if res.Reason != tc.reason {
		t.Errorf("Reason = %q, want %q", res.Reason, tc.reason)
	}
	if res.Counted != tc.counted || res.Abstained != tc.abstained || res.Superseded != tc.superseded {
		t.Errorf("Counted/Abstained/Superseded = %d/%d/%d, want %d/%d/%d",
			res.Counted, res.Abstained, res.Superseded, tc.counted, tc.abstained, tc.superseded)
	}
	if !slices.Equal(res.Rejected, tc.rejected) {
		t.Errorf("Rejected = %q, want %q", res.Rejected, tc.rejected)
	}
	if tc.ranking != nil && !slices.Equal(res.Ranking, tc.ranking) {
		t.Errorf("Ranking = %q, want %q", res.Ranking, tc.ranking)
	}
	checkTotals(t, res.Totals, tc.totals)
	if tc.checkRounds {
		checkRounds(t, res.Rounds, tc.rounds)
	}
}

func checkTotals(t *testing.T, got map[string]*big.Rat, want map[string]string) {
	t.Helper()
	for c, w := range want {
		r, ok := new(big.Rat).SetString(w)
		if !ok {
			t.Fatalf("bad test total %q", w)
		}
		if got[c] == nil || got[c].Cmp(r) != 0 {
			t.Errorf("Totals[%s] = %v, want %s", c, got[c], w)
		}
	}
	if want != nil && len(got) != len(want) {
		t.Errorf("Totals has %d candidates, want %d", len(got), len(want))
	}
}
