package store_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkAppend measures one-event appends with fsync on, one goroutine
// per table: with many tables, Batch shares each fsync among them.
func BenchmarkAppend(b *testing.B) { benchAppend(b, store.Options{}) }

// BenchmarkAppendNoSync is BenchmarkAppend without fsync, for comparison.
func BenchmarkAppendNoSync(b *testing.B) { benchAppend(b, store.Options{NoSync: true}) }

func benchAppend(b *testing.B, opt store.Options) {
	for _, tables := range []int{1, 64} {
		b.Run(fmt.Sprintf("tables=%d", tables), func(b *testing.B) {
			db := openTest(b, opt)
			now := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
			cfg := roundtabletest.SampleConfig(1).WithDefaults()
			for i := range tables {
				id := fmt.Sprintf("t%d", i)
				e := roundtable.Event{Table: id, Seq: 1, Time: now, Data: roundtable.TableCreated{Config: cfg}}
				if err := db.Append(b.Context(), id, []roundtable.Event{e}); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			var wg sync.WaitGroup
			for i := range tables {
				n := b.N / tables
				if i < b.N%tables {
					n++
				}
				wg.Go(func() { appendN(b, db, fmt.Sprintf("t%d", i), n, now) })
			}
			wg.Wait()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

func appendN(b *testing.B, db *store.DB, table string, n int, now time.Time) {
	for seq := uint64(2); seq < uint64(n)+2; seq++ {
		e := roundtable.Event{Table: table, Seq: seq, Time: now, Actor: "bot-1",
			Data: roundtable.MessagePosted{Round: 1, Text: "A park serves more people than a row of trees."}}
		if err := db.Append(b.Context(), table, []roundtable.Event{e}); err != nil {
			b.Error(err)
			return
		}
	}
}
