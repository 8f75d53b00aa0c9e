package bot_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkRestart restarts the service over a bbolt file of open tables,
// each with rounds of history (four people and the Facilitator, sealed
// plurality, everyone acted in every phase) and its next round's message
// phase open. The clock is stopped at the time of the history, so resume
// only reads, re-arms deadlines and finds the open phase already posted
// (an untimed first restart posts it). It reports
//
//	serving-ms   from opening the file to the platform serving events
//	answer-ms    from serving to the answer to a status command for a random table
//	resumed-ms   from opening the file to every table resumed (Service.Resumed)
//	peak-rss-MB  peak RSS during the restart (VmHWM, reset before it), the file's mapped pages included
//	peak-anon-MB peak anonymous RSS during the restart (sampled every 2 ms): the heap, without the file
//	rss-file-MB  RSS once resumed that is the bbolt file's mapped pages (reclaimable)
//	heap-MB      heap in use once resumed
//
// Run: go test ./bot -run '^$' -bench Restart -benchtime 1x
// (ROUNDTABLE_BENCH_TABLES and _ROUNDS scale it; defaults 1000 tables at 10 and 100 rounds;
// ROUNDTABLE_BENCH_HEAPPROFILE=FILE writes the heap once resumed, for go tool pprof).
func BenchmarkRestart(b *testing.B) {
	for _, n := range benchSizes(b, "ROUNDTABLE_BENCH_TABLES", 1000) {
		for _, r := range benchSizes(b, "ROUNDTABLE_BENCH_ROUNDS", 10, 100) {
			b.Run(fmt.Sprintf("tables=%d/rounds=%d", n, r), func(b *testing.B) {
				dir := b.TempDir()
				at := writeOpenTables(b, dir, n, r)
				restart(b, dir, at, n) // posts each table's open phase once
				var sum, peak restartFigures
				peak.anon = -1
				load := sampleLoad()
				for range b.N {
					f := restart(b, dir, at, n)
					sum.serving, sum.resumed, sum.answer, sum.heap = sum.serving+f.serving, sum.resumed+f.resumed, sum.answer+f.answer, sum.heap+f.heap
					peak.rss, peak.file, peak.anon = max(peak.rss, f.rss), max(peak.file, f.file), max(peak.anon, f.anon)
				}
				per := float64(b.N)
				b.ReportMetric(sum.serving/per, "serving-ms")
				b.ReportMetric(sum.answer/per, "answer-ms")
				b.ReportMetric(sum.resumed/per, "resumed-ms")
				b.ReportMetric(peak.rss, "peak-rss-MB")
				b.ReportMetric(peak.anon, "peak-anon-MB")
				b.ReportMetric(sum.heap/per, "heap-MB")
				b.ReportMetric(peak.file, "rss-file-MB")
				load.report(b)
			})
		}
	}
}

// restartFigures are one restart's: times in ms, sizes in MB.
type restartFigures struct {
	serving, answer, resumed float64
	rss, heap, file, anon    float64
}

// servingPlatform is the fake platform that tells when it starts serving.
type servingPlatform struct {
	*bottest.Fake
	serving chan time.Time
}

func (p servingPlatform) Run(ctx context.Context, h bot.Handler) error {
	p.serving <- time.Now()
	return p.Fake.Run(ctx, h)
}

// restart opens the file, runs the service until every table is resumed,
// and stops it. As soon as the platform serves, one of the n tables is
// asked for its status, most likely before resume reaches it.
func restart(b *testing.B, dir string, at time.Time, n int) restartFigures {
	b.StopTimer()
	heapInUse()
	canPeak := resetPeakRSS()
	anon := peakAnon()
	b.StartTimer()
	t0 := time.Now()
	db := benchDB(b, dir, store.Options{})
	p := servingPlatform{Fake: bottest.NewFake(), serving: make(chan time.Time, 1)}
	svc := benchService(p, db, bottest.NewClock(at), 5*time.Second)
	stop := bottest.Serve(b, svc)
	served := <-p.serving
	answered := askStatus(b, p.Fake, fmt.Sprintf("th%06d", rand.IntN(n)))
	<-svc.Resumed()
	t1 := time.Now()
	b.StopTimer()
	f := restartFigures{serving: ms(served.Sub(t0)), answer: ms(answered.Sub(served)), resumed: ms(t1.Sub(t0)),
		rss: -1, file: procStatus("RssFile"), anon: anon()}
	if canPeak {
		f.rss = peakRSS()
	}
	f.heap = heapInUse()
	writeHeapProfile(b)
	stop()
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	return f
}

// askStatus asks for the status of the table in thread and returns when
// it was answered.
func askStatus(b *testing.B, f *bottest.Fake, thread string) time.Time {
	asker := bottest.User{ID: "asker", Name: "Asker"}
	connected(b, f, func() error { return f.Command(context.Background(), asker, thread, "status", nil) })
	at := time.Now()
	if pv := f.Private(asker); len(pv) == 0 || !strings.Contains(pv[len(pv)-1].Text, "running") {
		b.Errorf("the status of the table in %s reads %+v", thread, pv)
	}
	return at
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// writeOpenTables writes n open tables of the given rounds of history
// into dir's file and returns the time of their last event. One table is
// played through the domain; the others are copies of its log, each with
// the snapshot the store would have kept.
func writeOpenTables(b *testing.B, dir string, n, rounds int) time.Time {
	b.Helper()
	ctx := context.Background()
	events, at := playHistory(b, rounds)
	db := benchDB(b, dir, store.Options{NoSync: true})
	defer db.Close()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				id, thread := fmt.Sprintf("t%06d", i), fmt.Sprintf("th%06d", i)
				if err := appendLog(ctx, db, id, copyLog(events, id, thread)); err != nil {
					b.Error(err)
					return
				}
				if err := db.Bind(ctx, "fake:"+thread, id); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	return at
}

// appendLog stores a table's log with the snapshot its table would have
// written: the state at the last multiple of roundtable.SnapshotEvery.
func appendLog(ctx context.Context, db *store.DB, id string, events []roundtable.Event) error {
	k := len(events) / roundtable.SnapshotEvery * roundtable.SnapshotEvery
	if k == 0 {
		return db.Append(ctx, id, events)
	}
	snap, err := roundtable.Replay(events[:k])
	if err != nil {
		return err
	}
	if err := db.AppendSnapshot(ctx, id, events[:k], snap); err != nil {
		return err
	}
	return db.Append(ctx, id, events[k:])
}

// copyLog returns events as the log of table id in thread.
func copyLog(events []roundtable.Event, id, thread string) []roundtable.Event {
	out := make([]roundtable.Event, len(events))
	for i, e := range events {
		e.Table = id
		if c, ok := e.Data.(roundtable.TableCreated); ok {
			c.Config.Labels = maps.Clone(c.Config.Labels)
			c.Config.Labels["channel"] = thread
			e.Data = c
		}
		out[i] = e
	}
	return out
}

// playHistory plays a table of four people and the Facilitator for
// rounds rounds in memory, everyone acting in every phase, and opens the
// next round's message phase, where the Facilitator has spoken.
func playHistory(b *testing.B, rounds int) ([]roundtable.Event, time.Time) {
	ctx := context.Background()
	mem := roundtabletest.NewMemStore()
	clock := bottest.NewClock(time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	people := []roundtable.Participant{facilitatorSeat}
	for j := range 4 {
		people = append(people, roundtable.Participant{ID: fmt.Sprintf("fake:u%d", j), Name: fmt.Sprintf("Person %d", j), Kind: roundtable.Human, Platform: fmt.Sprintf("u%d", j)})
	}
	d := 5 * time.Second
	cfg := roundtable.Config{Task: roundtable.TaskSpec{Kind: "text", Topic: "Where do we meet?"}, Rule: vote.Plurality,
		Rounds: rounds + 1, Mode: roundtable.Sealed, EarlyStop: roundtable.StopNever, Participants: people,
		Durations: roundtable.Durations{Message: d, Proposal: d, Vote: d},
		Labels:    map[string]string{"platform": "fake", "channel": "", "parent": "general", "starter": people[1].ID}}
	t, err := roundtable.Create(ctx, mem, clock, roundtable.TextTask{Topic: cfg.Task.Topic}, "template", cfg)
	if err != nil {
		b.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	must(t.Start(ctx))
	for r := 1; r <= rounds; r++ {
		for _, phase := range []roundtable.Phase{roundtable.PhaseMessage, roundtable.PhaseProposal, roundtable.PhaseVote} {
			for _, p := range people {
				must(t.Do(ctx, historyAction(p, r, phase)))
			}
			clock.Advance(time.Second)
			_, err := t.Close(ctx, roundtable.Position{Round: r, Phase: phase}, roundtable.ClosedAllActed)
			must(err)
		}
	}
	must(t.Do(ctx, historyAction(facilitatorSeat, rounds+1, roundtable.PhaseMessage)))
	events, err := mem.Load(ctx, "template")
	must(err)
	return events, clock.Now()
}

// historyAction is what p does in a phase of the history.
func historyAction(p roundtable.Participant, round int, phase roundtable.Phase) roundtable.Action {
	key := fmt.Sprintf("%s:%d:%s", p.ID, round, phase)
	switch phase {
	case roundtable.PhaseMessage:
		return roundtable.Say{Actor: p.ID, Key: key, Text: fmt.Sprintf("%s, round %d: I would rather meet at the station, it is central.", p.Name, round)}
	case roundtable.PhaseProposal:
		if p.Kind == roundtable.Bot {
			return roundtable.Skip{Actor: p.ID, Key: key, Reasoning: "the facilitator makes no proposal"}
		}
		return roundtable.Propose{Actor: p.ID, Key: key, Proposal: roundtable.Proposal{Text: "Meet at the station at noon, " + p.Name},
			Reasoning: "it is central"}
	}
	return roundtable.Cast{Actor: p.ID, Key: key, Ballot: vote.Ballot{Choice: "A"}}
}
