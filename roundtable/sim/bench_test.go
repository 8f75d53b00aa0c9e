package sim_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkExchangeTable plays one 10-round, 3-agent exchange table with
// utility agents per iteration, end to end: moderator, rules, agents and
// the store (in memory, and a real bbolt file with fsync on every commit).
func BenchmarkExchangeTable(b *testing.B) {
	b.Run("store=memory", func(b *testing.B) {
		benchTables(b, roundtabletest.NewMemStore())
	})
	b.Run("store=bbolt", func(b *testing.B) {
		db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		benchTables(b, db)
	})
}

func benchTables(b *testing.B, st roundtable.Store) {
	spec := exchangeSpec(b, vote.Majority, b.N)
	spec.Concurrency = 1
	spec.Name = b.Name()
	b.ResetTimer()
	res, err := sim.Execute(context.Background(), st, roundtable.SystemClock{}, spec)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/res.Wall.Seconds(), "tables/s")
}
