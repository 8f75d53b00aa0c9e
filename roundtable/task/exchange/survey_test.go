package exchange_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Utility traders at a table that asks for self-reports answer every
// survey with the middle of the scale and a reason that marks it as no
// view, instead of failing every round.
func TestUtilityAgentsAnswerSelfReportsWithNoOpinion(t *testing.T) {
	ctx := context.Background()
	task, err := exchange.NewTask(3, exchange.Asymmetric)
	if err != nil {
		t.Fatal(err)
	}
	cfg := roundtable.Config{Rule: vote.Majority, Rounds: 2, Seed: 3, Task: roundtable.TaskSpec{Kind: "exchange"},
		Audit: &roundtable.AuditSpec{Instruments: []string{"stance"}, Statement: "Trade is fair.", SelfReport: true}}
	agents := map[string]roundtable.Agent{}
	for i := range 3 {
		p := roundtable.Participant{ID: fmt.Sprintf("a%d", i+1), Name: fmt.Sprintf("Agent %d", i+1), Kind: roundtable.Bot, Agent: "utility"}
		cfg.Participants = append(cfg.Participants, p)
		agents[p.ID] = &exchange.UtilityAgent{Task: task}
	}
	st := roundtabletest.NewMemStore()
	tb, err := roundtable.Create(ctx, st, roundtabletest.NewClock(time.Unix(0, 0)), task, "x", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&roundtable.Runner{Agents: agents}).Run(ctx, tb); err != nil {
		t.Fatal(err)
	}
	evs, err := st.Load(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	answers := 0
	for _, e := range evs {
		switch d := e.Data.(type) {
		case roundtable.ActionFailed:
			t.Errorf("round %d: %s failed in the %s phase: %s", d.Round, e.Actor, d.Phase, d.Reason)
		case roundtable.SurveyAnswered:
			answers++
			if len(d.Values) != 1 || d.Values[0] != 0 || !roundtable.IsNoOpinion(d.Reason) {
				t.Errorf("round %d: %s answered %v (%q), want the middle 0 marked as no opinion", d.Round, e.Actor, d.Values, d.Reason)
			}
		}
	}
	if answers != 6 {
		t.Errorf("%d survey answers, want 3 traders × 2 rounds", answers)
	}
}
