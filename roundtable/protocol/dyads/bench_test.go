package dyads_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// BenchmarkDyadsTable runs one 10-agent dyads table of 100 steps with
// DeGroot agents on the in-memory store: the headless cost of a protocol
// table without the disk.
func BenchmarkDyadsTable(b *testing.B) {
	ctx := context.Background()
	ps := make([]roundtable.Participant, 10)
	agents := map[string]roundtable.Agent{}
	for i := range ps {
		ps[i] = roundtable.Participant{ID: fmt.Sprintf("a%d", i), Name: fmt.Sprintf("A%d", i), Kind: roundtable.Bot, Stance: fmt.Sprint(i%5 - 2)}
		agents[ps[i].ID] = dyads.Dyad{Rule: dyads.DeGroot}
	}
	cfg := roundtable.Config{Rule: vote.Plurality, Rounds: 100, Seed: 1, Protocol: dyads.Preset(protocol.Settings{Question: "q"}),
		Participants: ps, Task: roundtable.TaskSpec{Kind: "text", Topic: "q"}}
	for i := 0; b.Loop(); i++ {
		tb, err := roundtable.Create(ctx, roundtabletest.NewMemStore(), roundtabletest.NewClock(time.Unix(0, 0)), roundtable.TextTask{Topic: "q"}, fmt.Sprint(i), cfg)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := (&roundtable.Runner{Agents: agents}).Run(ctx, tb); err != nil {
			b.Fatal(err)
		}
	}
}
