package vote_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestBallotString(t *testing.T) {
	cases := map[string]vote.Ballot{
		"abstain":      {Abstain: true},
		"B":            {Choice: "B"},
		"C > A > B":    {Ranking: []string{"C", "A", "B"}},
		"A=5 B=2 C=1":  {Scores: map[string]int{"C": 1, "A": 5, "B": 2}},
		"A=2 C=1":      {Points: map[string]int{"A": 2, "C": 1}},
		"approve A C":  {Approve: []string{"A", "C"}},
		"approve none": {Approve: []string{}},
	}
	for want, b := range cases {
		if got := b.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", b, got, want)
		}
	}
}
