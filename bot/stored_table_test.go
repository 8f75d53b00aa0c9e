package bot_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// playStored creates table "t1" on db from cfg and plays rounds rounds of
// it: in each, actor says sayf with the round's number, proposes and votes, and each phase is
// closed as all acted. A step above zero advances the clock before each
// close. Most of the rounds end up archived in the file.
func playStored(t *testing.T, db *store.DB, clock *bottest.Clock, cfg roundtable.Config, actor string, rounds int, sayf string, step time.Duration) *roundtable.Table {
	t.Helper()
	ctx := context.Background()
	tbl, err := roundtable.Create(ctx, db, clock, roundtable.TextTask{Topic: cfg.Task.Topic}, "t1", cfg)
	if err != nil {
		t.Fatal(err)
	}
	must(t, tbl.Start(ctx))
	for r := 1; r <= rounds; r++ {
		for _, a := range []roundtable.Action{
			roundtable.Say{Actor: actor, Text: fmt.Sprintf(sayf, r)},
			roundtable.Propose{Actor: actor, Proposal: roundtable.Proposal{Text: "Soup"}},
			roundtable.Cast{Actor: actor, Ballot: vote.Ballot{Choice: "A"}}} {
			must(t, tbl.Do(ctx, a))
			var pos roundtable.Position
			tbl.Read(func(s *roundtable.State) { pos = s.Position() })
			if step > 0 {
				clock.Advance(step)
			}
			if _, err := tbl.Close(ctx, pos, roundtable.ClosedAllActed); err != nil {
				t.Fatal(err)
			}
		}
	}
	return tbl
}
