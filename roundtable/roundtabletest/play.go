package roundtabletest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// PlayProtocol runs a text table of the protocol to its end on the
// in-memory store, each participant played by its agent, and fails t on
// any error or failed action. It returns the final state.
func PlayProtocol(t testing.TB, pr *roundtable.Protocol, rounds int, seed int64, ps []roundtable.Participant, agents map[string]roundtable.Agent) *roundtable.State {
	t.Helper()
	ctx := context.Background()
	cfg := roundtable.Config{Rule: vote.Plurality, Rounds: rounds, Seed: seed, Protocol: pr, Participants: ps,
		Task: roundtable.TaskSpec{Kind: "text", Topic: "the claim"}}
	tb, err := roundtable.Create(ctx, NewMemStore(), NewClock(time.Unix(0, 0)), roundtable.TextTask{Topic: "the claim"}, "t", cfg)
	if err != nil {
		t.Fatal(err)
	}
	st, err := (&roundtable.Runner{Agents: agents}).Run(ctx, tb)
	if err != nil {
		t.Fatal(err)
	}
	if st.Failures != 0 {
		t.Fatalf("%d failed actions: %+v", st.Failures, tb.Snapshot().Rounds)
	}
	return tb.Snapshot()
}

// PlayStances plays PlayProtocol with seed 9 and one seat per stance,
// a1 "Agent 1" onwards, every seat played by ag.
func PlayStances(t testing.TB, pr *roundtable.Protocol, rounds int, stances []string, ag roundtable.Agent) *roundtable.State {
	t.Helper()
	ps := make([]roundtable.Participant, len(stances))
	agents := map[string]roundtable.Agent{}
	for i, st := range stances {
		ps[i] = roundtable.Participant{ID: fmt.Sprintf("a%d", i+1), Name: fmt.Sprintf("Agent %d", i+1), Kind: roundtable.Bot, Stance: st}
		agents[ps[i].ID] = ag
	}
	return PlayProtocol(t, pr, rounds, 9, ps, agents)
}
