package vote_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestRulesOrder(t *testing.T) {
	want := []vote.Rule{vote.Unanimous, vote.Majority, vote.Plurality, vote.Rated, vote.Ranked,
		vote.Cumulative, vote.Borda, vote.Approval, vote.InstantRunoff, vote.Copeland, vote.Schulze}
	if got := vote.Rules(); !slices.Equal(got, want) {
		t.Fatalf("Rules() = %v, want %v", got, want)
	}
	vote.Rules()[0] = "mutated"
	if vote.Rules()[0] != vote.Unanimous {
		t.Fatal("Rules returned the table itself")
	}
}

func TestParseRule(t *testing.T) {
	tests := []struct {
		in   string
		want vote.Rule
	}{
		{"plurality", vote.Plurality},
		{"  Rated ", vote.Rated},
		{"IRV", vote.InstantRunoff},
		{"Instant-Runoff", vote.InstantRunoff},
		{"BORDA", vote.Borda},
	}
	for _, tt := range tests {
		if got, err := vote.ParseRule(tt.in); err != nil || got != tt.want {
			t.Errorf("ParseRule(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, r := range vote.Rules() {
		if got, err := vote.ParseRule(string(r)); err != nil || got != r {
			t.Errorf("ParseRule(%q) = %q, %v", r, got, err)
		}
	}
}

func TestParseRuleErrorListsValidNames(t *testing.T) {
	_, err := vote.ParseRule("condorcet")
	want := `unknown rule "condorcet" (valid: unanimous, majority, plurality, rated, ranked, cumulative, borda, approval, irv, copeland, schulze)`
	if err == nil || err.Error() != want {
		t.Fatalf("ParseRule error = %v, want %q", err, want)
	}
}

func TestRuleFormat(t *testing.T) {
	want := map[vote.Rule]vote.BallotFormat{
		vote.Unanimous: "choice", vote.Majority: "choice", vote.Plurality: "choice",
		vote.Rated: "scores", vote.Ranked: "ranking", vote.Cumulative: "points",
		vote.Borda: "ranking", vote.Approval: "approve", vote.InstantRunoff: "ranking",
		"nonsense": "",
	}
	for r, f := range want {
		if got := r.Format(); got != f {
			t.Errorf("%q.Format() = %q, want %q", r, got, f)
		}
	}
}

func TestRuleDescribe(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range vote.Rules() {
		d := r.Describe()
		if len(d) < 80 || strings.Contains(d, "\n") || seen[d] {
			t.Errorf("%s: poor description %q", r, d)
		}
		seen[d] = true
	}
	if d := vote.Rule("x").Describe(); !strings.Contains(d, "Unknown rule") {
		t.Errorf("unknown rule described as %q", d)
	}
}

func TestParseTiePolicy(t *testing.T) {
	tests := map[string]vote.TiePolicy{"": vote.TieDefer, "defer": vote.TieDefer, " Random": vote.TieRandom, "INCUMBENT": vote.TieIncumbent}
	for in, want := range tests {
		if got, err := vote.ParseTiePolicy(in); err != nil || got != want {
			t.Errorf("ParseTiePolicy(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	_, err := vote.ParseTiePolicy("coin")
	if want := `unknown tie policy "coin" (valid: defer, random, incumbent)`; err == nil || err.Error() != want {
		t.Errorf("ParseTiePolicy error = %v, want %q", err, want)
	}
}
