package store_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
	"github.com/roundtable-ai/roundtable/store/storetest"
)

// BenchmarkOpen opens a 100-round sample table (four seats, 2,003 events)
// from a real bbolt file: as the moderator wrote it, with a snapshot every
// roundtable.SnapshotEvery events, and as a file from before snapshots
// holds it, the whole log to replay.
func BenchmarkOpen(b *testing.B) {
	db := openTest(b, store.Options{NoSync: true})
	ctx := b.Context()
	if _, err := roundtabletest.PlayTable(ctx, db, roundtabletest.NewClock(storetest.SnapTime), "played", 100); err != nil {
		b.Fatal(err)
	}
	log := mustLoad(b, db, "played")
	if err := db.Append(ctx, "logonly", storetest.Retable(log, "logonly")); err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct{ name, id string }{{"snapshots=true", "played"}, {"snapshots=false", "logonly"}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := roundtable.Open(ctx, db, roundtabletest.NewClock(storetest.SnapTime), roundtabletest.SampleTask(), c.id); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(log)), "events")
		})
	}
}
