package vote_test

import (
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestCheck(t *testing.T) {
	full := map[string]int{"A": 5, "B": 3, "C": 1}
	tests := []struct {
		name string
		rule vote.Rule
		b    vote.Ballot
		want string // "" = valid
	}{
		{"choice is valid", vote.Plurality, choice("v", "A"), ""},
		{"abstention is valid", vote.Rated, abstain("v"), ""},
		{"no voter name", vote.Plurality, choice("", "A"), "ballot has no voter name"},
		{"blank voter name", vote.Plurality, choice("  ", "A"), "ballot has no voter name"},
		{"abstention that also votes", vote.Plurality, vote.Ballot{Voter: "v", Abstain: true, Choice: "A"}, "an abstaining ballot must not also carry a choice"},
		{"missing choice", vote.Plurality, vote.Ballot{Voter: "v"}, "plurality ballots need a choice"},
		{"scores under plurality", vote.Plurality, scores("v", full), "plurality ballots need a choice, not scores"},
		{"ranking under majority", vote.Majority, ranking("v", "A"), "majority ballots need a choice, not a ranking"},
		{"unknown choice", vote.Unanimous, choice("v", "Z"), `unknown candidate "Z"`},
		{"choice plus a ranking", vote.Plurality, vote.Ballot{Voter: "v", Choice: "A", Ranking: []string{"A"}}, "unexpected ranking on a plurality ballot"},

		{"full scores are valid", vote.Rated, scores("v", full), ""},
		{"missing scores", vote.Rated, vote.Ballot{Voter: "v"}, "rated ballots need scores"},
		{"score above range", vote.Rated, scores("v", map[string]int{"A": 5, "B": 6, "C": 1}), "score 6 for B is out of range 1..5"},
		{"score below range", vote.Rated, scores("v", map[string]int{"A": 0, "B": 3, "C": 1}), "score 0 for A is out of range 1..5"},
		{"missing score", vote.Rated, scores("v", map[string]int{"A": 5, "B": 3}), "missing score for C"},
		{"unknown scored candidate", vote.Rated, scores("v", map[string]int{"A": 5, "B": 3, "C": 1, "Z": 2}), `unknown candidate "Z"`},

		{"prefix ranking is valid", vote.Ranked, ranking("v", "C"), ""},
		{"missing ranking", vote.Ranked, vote.Ballot{Voter: "v"}, "ranked ballots need a ranking"},
		{"rank repeated", vote.Ranked, ranking("v", "A", "B", "A"), "candidate A ranked twice"},
		{"unknown ranked candidate", vote.Ranked, ranking("v", "A", "Z"), `unknown candidate "Z"`},
		{"irv prefix is valid", vote.InstantRunoff, ranking("v", "B", "A"), ""},
		{"irv points", vote.InstantRunoff, points("v", map[string]int{"A": 1}), "irv ballots need a ranking, not points"},
		{"borda full order is valid", vote.Borda, ranking("v", "C", "A", "B"), ""},
		{"borda partial order", vote.Borda, ranking("v", "C", "A"), "borda ranking is missing B: order all 3 candidates"},
		{"borda repeated", vote.Borda, ranking("v", "C", "A", "C"), "candidate C ranked twice"},

		{"points within budget are valid", vote.Cumulative, points("v", map[string]int{"A": 2, "C": 1}), ""},
		{"zero points are valid", vote.Cumulative, points("v", map[string]int{"A": 0}), ""},
		{"missing points", vote.Cumulative, vote.Ballot{Voter: "v"}, "cumulative ballots need points"},
		{"negative points", vote.Cumulative, points("v", map[string]int{"A": -1, "B": 1}), "negative points for A"},
		{"over budget", vote.Cumulative, points("v", map[string]int{"A": 3, "B": 2}), "points total 5 exceeds the budget of 3"},
		{"overflowing points", vote.Cumulative, points("v", map[string]int{"A": math.MaxInt, "B": math.MaxInt}), "points total 18446744073709551614 exceeds the budget of 3"},
		{"unknown pointed candidate", vote.Cumulative, points("v", map[string]int{"Y": 1, "X": 1}), `unknown candidate "X"`},

		{"approval set is valid", vote.Approval, approve("v", "A", "C"), ""},
		{"empty approval is valid", vote.Approval, approve("v"), ""},
		{"approval repeated", vote.Approval, approve("v", "A", "A"), "candidate A approved twice"},
		{"unknown approved candidate", vote.Approval, approve("v", "Z"), `unknown candidate "Z"`},
		{"choice under approval", vote.Approval, choice("v", "A"), "approval ballots need an approve list, not a choice"},
		{"approve under ranked", vote.Ranked, approve("v", "A"), "ranked ballots need a ranking, not an approve list"},

		{"unknown rule", vote.Rule("x"), choice("v", "A"), `unknown rule "x" (valid: unanimous, majority, plurality, rated, ranked, cumulative, borda, approval, irv, copeland, schulze)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.rule.Check(tt.b, abc)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Check = %v, want valid", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Fatalf("Check = %v, want %q", err, tt.want)
			}
		})
	}
}
