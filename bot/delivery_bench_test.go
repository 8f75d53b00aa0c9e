package bot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// countingStore counts the writes of delivery records.
type countingStore struct {
	*store.DB
	commits, records atomic.Int64
}

func (c *countingStore) PutBlob(ctx context.Context, ns, key string, v []byte) error {
	c.commits.Add(1)
	c.records.Add(1)
	return c.DB.PutBlob(ctx, ns, key, v)
}

func (c *countingStore) PutBlobs(ctx context.Context, ns string, kv map[string][]byte) error {
	c.commits.Add(1)
	c.records.Add(int64(len(kv)))
	return c.DB.PutBlobs(ctx, ns, kv)
}

// BenchmarkPhaseClose closes one phase at every one of N live tables (a
// person who does not act and an agent each, sealed, on a real bbolt file
// with fsync) per op, and waits until the channels show what the closes
// imply. close-µs is the time a phase close holds its table (the deadline
// callbacks run one after another); records/commit is how many delivery
// records share a store commit.
func BenchmarkPhaseClose(b *testing.B) {
	for _, n := range []int{16, 64} {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) { benchPhaseClose(b, n) })
	}
}

// benchTables runs a service over the reference fake and a real bbolt
// file with fsync, with n tables started (Alice, who does not act unless
// told, and an agent each; sealed; 1,000 rounds).
type benchTables struct {
	fake    *bottest.Fake
	clock   *bottest.Clock
	st      *countingStore
	threads []string
}

func newBenchTables(b *testing.B, n int) *benchTables {
	db, err := store.Open(filepath.Join(b.TempDir(), "bench.db"), store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = db.Close() })
	bt := &benchTables{st: &countingStore{DB: db}, fake: bottest.NewFake(),
		clock: bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- scribeService(bt.st, bt.fake, bt.clock, 1000, 0).Run(ctx) }()
	b.Cleanup(func() { cancel(); <-done })
	for bt.fake.Command(ctx, bottest.Carol, "general", "help", nil) != nil {
		<-bt.fake.Updates()
	}
	for i := range n {
		if err := bt.fake.Command(ctx, bottest.Alice, "general", "start", map[string]string{"topic": fmt.Sprint("T", i), "start": "full", "seats": "2"}); err != nil { // Alice and Scribe: it starts at once
			b.Fatal(err)
		}
	}
	bt.threads = bt.fake.Threads("general")
	bt.waitPosts(2 * n)
	return bt
}

// total counts the posts of every table.
func (bt *benchTables) total() int {
	c := 0
	for _, th := range bt.threads {
		c += len(bt.fake.Posts(th))
	}
	return c
}

func (bt *benchTables) waitPosts(n int) {
	for bt.total() < n {
		<-bt.fake.Updates()
	}
}

func benchPhaseClose(b *testing.B, n int) {
	bt := newBenchTables(b, n)
	commits0, records0 := bt.st.commits.Load(), bt.st.records.Load()
	var closing time.Duration
	b.ResetTimer()
	for range b.N {
		before := bt.total()
		t0 := time.Now()
		bt.clock.Advance(phase)
		closing += time.Since(t0)
		bt.waitPosts(before + n) // each close implies at least its successor's prompt
	}
	b.StopTimer()
	b.ReportMetric(float64(closing.Microseconds())/float64(b.N*n), "close-µs")
	bt.reportRecords(b, commits0, records0)
}

func (bt *benchTables) reportRecords(b *testing.B, commits0, records0 int64) {
	if c := bt.st.commits.Load() - commits0; c > 0 {
		b.ReportMetric(float64(bt.st.records.Load()-records0)/float64(c), "records/commit")
	}
}

// BenchmarkConcurrentActs has the person of each of N tables act at once,
// each act closing its phase (the agent acted already), and reports the
// latency of the acts: what a person waits for while the close holds the
// table.
func BenchmarkConcurrentActs(b *testing.B) {
	for _, n := range []int{16, 64} {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) { benchConcurrentActs(b, n) })
	}
}

func benchConcurrentActs(b *testing.B, n int) {
	bt := newBenchTables(b, n)
	commits0, records0 := bt.st.commits.Load(), bt.st.records.Load()
	var lat []time.Duration
	var mu sync.Mutex
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		before := bt.total()
		var wg sync.WaitGroup
		for _, th := range bt.threads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				t0 := time.Now()
				var err error
				switch i % 3 {
				case 0:
					err = bt.fake.Say(ctx, bottest.Alice, th, "hello")
				case 1:
					err = bt.fake.Command(ctx, bottest.Alice, th, "propose", map[string]string{"text": "plan"})
				default:
					err = bt.fake.Command(ctx, bottest.Alice, th, "vote", map[string]string{"ballot": "A"})
				}
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
				if err != nil {
					b.Error(err)
				}
			}()
		}
		wg.Wait()
		bt.waitPosts(before + n)
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "act-p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "act-p99-µs")
	bt.reportRecords(b, commits0, records0)
}
