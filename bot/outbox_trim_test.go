package bot

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// The planner of a long table keeps the round in progress and the one
// before it, stubs for the rest and no action keys, and still implies
// every post of every round.
func TestPlannerKeepsOnlyTheRecentRounds(t *testing.T) {
	obs, marks := plannedStore(func(string) bool { return false })
	ctx := context.Background()
	if _, err := roundtabletest.PlayTable(ctx, obs, roundtabletest.NewClock(time.Unix(1e9, 0)), "t1", 5); err != nil {
		t.Fatal(err)
	}
	for r := 1; r <= 5; r++ {
		msgs := 0
		for _, m := range *marks {
			if strings.HasPrefix(m, fmt.Sprintf("r%d/msg/", r)) {
				msgs++
			}
		}
		if msgs != 4 || !slices.Contains(*marks, fmt.Sprintf("r%d/result", r)) || !slices.Contains(*marks, fmt.Sprintf("r%d/vote/open#closed", r)) {
			t.Errorf("round %d: %d messages revealed, intents %q", r, msgs, *marks)
		}
	}
	if !slices.Contains(*marks, "end") {
		t.Errorf("no end post in %q", *marks)
	}
	s := obs.plan.state
	if len(s.Keys) != 0 {
		t.Errorf("the planner keeps %d action keys", len(s.Keys))
	}
	for i, r := range s.Rounds[:s.Round-2] {
		if len(r.Messages)+len(r.Proposals)+len(r.Candidates) > 0 || r.Tally != nil || r.Round != i+1 {
			t.Errorf("round %d of %d is kept whole: %+v", i+1, s.Round, r)
		}
	}
	if cur := s.Rounds[s.Round-1]; cur.Tally == nil || len(cur.Messages) != 4 {
		t.Errorf("the last round is not whole: %+v", cur)
	}
}

func TestPlannerCopySharesNothingAndStubsEndedRounds(t *testing.T) {
	mem := roundtabletest.NewMemStore()
	ctx := context.Background()
	if _, err := roundtabletest.PlayTable(ctx, mem, roundtabletest.NewClock(time.Unix(1e9, 0)), "t1", 4); err != nil {
		t.Fatal(err)
	}
	evs, err := mem.Load(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	s, err := roundtable.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	c := plannerCopy(s)
	if len(c.Rounds) != len(s.Rounds) || c.Round != s.Round || c.Seq != s.Seq || len(c.Keys) != 0 {
		t.Fatalf("copy at round %d of %d rounds, seq %d, %d keys; want round %d, %d rounds, seq %d, no keys",
			c.Round, len(c.Rounds), c.Seq, len(c.Keys), s.Round, len(s.Rounds), s.Seq)
	}
	if c.Rounds[0].Tally != nil || c.Rounds[0].Round != 1 {
		t.Errorf("round 1 is not a stub: %+v", c.Rounds[0])
	}
	last := len(s.Rounds) - 1
	c.Rounds[last].Messages[0].Text = "changed"
	c.Participants[0].Name = "changed"
	if s.Rounds[last].Messages[0].Text == "changed" || s.Participants[0].Name == "changed" {
		t.Error("the planner's copy shares memory with the table's state")
	}
}
