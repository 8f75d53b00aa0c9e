package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkEndedTables measures what ended tables leave in memory: it
// starts tables of their starter and the Facilitator with 20 ms phases,
// which run their rounds to the end by themselves (the starter never
// acts, so every phase closes at its deadline), from 64 people at a time
// on the wall clock and a bbolt file, until all have ended. It reports
//
//	baseline-MB  heap in use of the idle service, before any table
//	after-MB     heap in use once every table has ended
//	growth-MB    after-MB − baseline-MB (the target is under 50 at 10,000 tables)
//	live-tables  tables the service still holds
//
// The platform discards what is posted, so that the heap is the service's.
//
// Run: go test ./bot -run '^$' -bench EndedTables -benchtime 1x
// (ROUNDTABLE_BENCH_TABLES and _ROUNDS scale it; default 10000 tables of 1 round).
func BenchmarkEndedTables(b *testing.B) {
	rounds := benchSizes(b, "ROUNDTABLE_BENCH_ROUNDS", 1)[0]
	for _, n := range benchSizes(b, "ROUNDTABLE_BENCH_TABLES", 10000) {
		b.Run(fmt.Sprintf("tables=%d/rounds=%d", n, rounds), func(b *testing.B) {
			for range b.N {
				endedRun(b, n, rounds)
			}
		})
	}
}

// sinkPlatform is the fake platform without memory: posts, replies and
// threads are counted, not kept. Ends are signalled.
type sinkPlatform struct {
	*bottest.Fake
	ids   atomic.Int64
	ended sync.WaitGroup
}

func (p *sinkPlatform) Post(_ context.Context, _ string, m bot.Message) (string, error) {
	if strings.HasPrefix(m.Text, "**The table has ended") {
		p.ended.Done()
	}
	return fmt.Sprintf("m%d", p.ids.Add(1)), nil
}

func (p *sinkPlatform) Edit(context.Context, string, string, bot.Message) error { return nil }

func (p *sinkPlatform) Reply(context.Context, *bot.Event, bot.Reply) error { return nil }

func (p *sinkPlatform) StartThread(context.Context, string, string) (string, error) {
	return fmt.Sprintf("th%d", p.ids.Add(1)), nil
}

func endedRun(b *testing.B, tables, rounds int) {
	b.StopTimer()
	db := benchDB(b, b.TempDir(), store.Options{})
	defer db.Close()
	p := &sinkPlatform{Fake: bottest.NewFake()}
	svc := benchService(p, db, bot.SystemClock{}, 20*time.Millisecond)
	stop := bottest.Serve(b, svc)
	defer stop()
	connected(b, p.Fake, func() error {
		return p.Command(context.Background(), bottest.User{ID: "warmup"}, "warmup", "help", nil)
	})
	baseline := heapInUse()
	p.ended.Add(tables)
	b.StartTimer()
	load := sampleLoad()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1) - 1; i < int64(tables); i = next.Add(1) - 1 {
				u := bottest.User{ID: fmt.Sprintf("u%d", i), Name: "Starter"}
				err := p.Command(context.Background(), u, "general", "start",
					map[string]string{"topic": fmt.Sprintf("Table %d: where do we meet?", i), "rounds": fmt.Sprint(rounds),
						"start": "full", "seats": "2"}) // the starter and the Facilitator: it starts at once
				if err != nil {
					b.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	p.ended.Wait()
	b.StopTimer()
	after := heapInUse()
	b.ReportMetric(baseline, "baseline-MB")
	b.ReportMetric(after, "after-MB")
	b.ReportMetric(after-baseline, "growth-MB")
	b.ReportMetric(float64(svc.Live()), "live-tables")
	load.report(b)
}
