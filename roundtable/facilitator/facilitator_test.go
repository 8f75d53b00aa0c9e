package facilitator_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestBacksBroadestSupportUnderEveryRule(t *testing.T) {
	cands := []roundtable.Candidate{
		{ID: "A", Proposers: []string{"p1"}},
		{ID: "B", Proposers: []string{"p2", "p3"}},
		{ID: "C", Incumbent: true},
	}
	for _, rule := range vote.Rules() {
		t.Run(string(rule), func(t *testing.T) {
			v := roundtable.View{Phase: roundtable.PhaseVote, Rule: rule, Candidates: cands}
			a, err := facilitator.Agent{}.Act(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			b := a.(roundtable.Cast).Ballot
			b.Voter = "f"
			if err := rule.Check(b, []string{"A", "B", "C"}); err != nil {
				t.Fatalf("invalid ballot %+v: %v", b, err)
			}
			res, err := vote.Tally(rule, vote.Profile{Candidates: []string{"A", "B", "C"}, Ballots: []vote.Ballot{b}}, vote.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Winner != "B" {
				t.Errorf("a lone facilitator ballot elects %q, want B (two proposers)", res.Winner)
			}
		})
	}
}

func TestSkipsProposalsAndSummarises(t *testing.T) {
	a, _ := facilitator.Agent{}.Act(context.Background(), roundtable.View{Phase: roundtable.PhaseProposal})
	if _, ok := a.(roundtable.Skip); !ok {
		t.Errorf("proposal phase: %T, want Skip", a)
	}
	dec := &roundtable.Candidate{Proposal: roundtable.Proposal{Text: "Ship the beta"}}
	v := roundtable.View{Phase: roundtable.PhaseMessage, Round: 2, Rounds: 3, Decision: dec,
		History: []roundtable.RoundRecord{{Round: 1, Tally: &roundtable.Tally{Winner: "A"}}}}
	a, _ = facilitator.Agent{}.Act(context.Background(), v)
	if say := a.(roundtable.Say); say.Text == "" || !strings.Contains(say.Text, "Ship the beta") {
		t.Errorf("summary %q does not mention the decision", say.Text)
	}
}
