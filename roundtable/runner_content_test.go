package roundtable_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// TestRunnerNormalisesProposalsAndRecordsBadOnesAsFailures checks the
// runner's content check: a valid proposal is recorded normalised (once),
// an empty one as a format failure.
func TestRunnerNormalisesProposalsAndRecordsBadOnesAsFailures(t *testing.T) {
	cfg := roundtable.Config{Rule: vote.Plurality, Rounds: 1, Participants: []roundtable.Participant{
		{ID: "good", Name: "Good", Kind: roundtable.Bot}, {ID: "bad", Name: "Bad", Kind: roundtable.Bot}}}
	tbl, err := roundtable.Create(t.Context(), roundtabletest.NewMemStore(), roundtabletest.NewClock(t0), roundtable.TextTask{Topic: "x"}, "t1", cfg)
	if err != nil {
		t.Fatal(err)
	}
	agent := func(text string) roundtable.Agent {
		return roundtable.AgentFunc(func(_ context.Context, v roundtable.View) (roundtable.Action, error) {
			switch v.Phase {
			case roundtable.PhaseMessage:
				return roundtable.Say{Text: "hello"}, nil
			case roundtable.PhaseProposal:
				return roundtable.Propose{Proposal: roundtable.Proposal{Text: text}}, nil
			}
			return roundtable.Cast{Ballot: vote.Ballot{Choice: "A"}}, nil
		})
	}
	r := roundtable.Runner{Agents: map[string]roundtable.Agent{"good": agent("  Plant trees \n"), "bad": agent(" ")}}
	st, err := r.Run(t.Context(), tbl)
	if err != nil {
		t.Fatal(err)
	}
	s := tbl.Snapshot()
	round := s.Rounds[0]
	if len(round.Proposals) != 1 || round.Proposals[0].Proposal.Text != "Plant trees" {
		t.Errorf("proposals %+v, want good's, trimmed", round.Proposals)
	}
	if len(round.Failures) != 1 || round.Failures[0].Participant != "bad" || round.Failures[0].Kind != "format" || st.Failures != 1 {
		t.Errorf("failures %+v (%d counted), want bad's format failure", round.Failures, st.Failures)
	}
}
