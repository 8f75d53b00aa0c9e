package bot_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// TestEndedTablesLeaveMemoryAndComeBackForStatusAndExport runs a table to
// its end on a fake clock: it leaves the service's memory, and its status
// and export still work, without keeping it there.
func TestEndedTablesLeaveMemoryAndComeBackForStatusAndExport(t *testing.T) {
	db, clock, fake := openDB(t), newClock(), bottest.NewFake()
	f := &forgetful{Fake: fake}
	svc := bottest.Service(f, db, clock, nil)
	runService(t, svc)
	thread := startTable(t, fake, map[string]string{"topic": "Lunch?", "rounds": "1", "agents": "none"})
	if svc.Live() != 1 {
		t.Fatalf("%d tables in memory after a start, want 1", svc.Live())
	}
	for range 3 { // message, proposal and vote phases close at their deadlines
		clock.Advance(2 * time.Minute)
	}
	if n := svc.Live(); n != 0 {
		t.Fatalf("%d tables in memory after the only one ended, want 0", n)
	}
	if got := f.forgotten(); len(got) != 1 || got[0] != thread {
		t.Errorf("the platform was told to forget %q, want the table's thread %q", got, thread)
	}
	ctx := context.Background()
	must(t, f.Command(ctx, bottest.Bob, thread, "status", nil))
	must(t, f.Command(ctx, bottest.Alice, thread, "export", map[string]string{"format": "jsonl"}))
	if got := lastPrivate(t, fake, bottest.Bob); !strings.Contains(got, ": ended") {
		t.Errorf("Bob's status reads %q, want the ended table", got)
	}
	if got := lastPrivate(t, fake, bottest.Alice); !strings.Contains(got, `"table_ended"`) {
		t.Errorf("Alice's export reads %q, want the log up to its end", got)
	}
	if n := svc.Live(); n != 0 {
		t.Errorf("%d tables in memory after status and export of an ended table, want 0", n)
	}
}

// TestResumeServesWhileTablesOpen restarts the service with two open
// tables and one resume worker, which gets stuck opening the first table
// it takes: the platform serves at once, an event for the other table
// opens that table itself and is answered, an event for the stuck table
// waits for it only, and Resumed closes once both are resumed.
func TestResumeServesWhileTablesOpen(t *testing.T) {
	db, clock, f := openDB(t), newClock(), bottest.NewFake()
	stop := runService(t, bottest.Service(f, db, clock, nil))
	threads := []string{startTable(t, f, map[string]string{"topic": "A?"}), startTable(t, f, map[string]string{"topic": "B?"})}
	stop()

	ctx := context.Background()
	gate := &gatedStore{DB: db, reached: make(chan struct{}), open: make(chan struct{})}
	svc := serviceWith(f, gate, clock, 1)
	runService(t, svc)
	<-gate.reached // the worker is stuck on one table
	stuck, free := threads[0], threads[1]
	if id, _, _ := db.Lookup(ctx, "fake:"+free); id == gate.table {
		stuck, free = free, stuck
	}
	connected(t, f, func() error { return f.Command(ctx, bottest.Bob, free, "status", nil) })
	if got := lastPrivate(t, f, bottest.Bob); !strings.Contains(got, "running") {
		t.Errorf("Bob's status of the free table reads %q", got)
	}
	select {
	case <-svc.Resumed():
		t.Fatal("Resumed closed while a table was still being opened")
	default:
	}
	done := make(chan error, 1)
	go func() { done <- f.Command(ctx, bottest.Carol, stuck, "status", nil) }()
	close(gate.open)
	must(t, <-done)
	if got := lastPrivate(t, f, bottest.Carol); !strings.Contains(got, "running") {
		t.Errorf("Carol's status of the stuck table reads %q", got)
	}
	<-svc.Resumed()
	if n := svc.Live(); n != 2 {
		t.Errorf("%d tables in memory after resume, want 2", n)
	}
	if clock.Pending() != 2 {
		t.Errorf("%d deadlines armed after resume, want one per table", clock.Pending())
	}
}

// TestTableWhoseResumeFailedResumesAtItsFirstEvent fails the reads of a
// table's log at restart: the service goes on, and the first event
// for that table opens it, re-arms its deadline and is answered.
func TestTableWhoseResumeFailedResumesAtItsFirstEvent(t *testing.T) {
	db, clock, f := openDB(t), newClock(), bottest.NewFake()
	stop := runService(t, bottest.Service(f, db, clock, nil))
	thread := startTable(t, f, map[string]string{"topic": "A?"})
	stop()

	flaky := &flakyStore{DB: db}
	flaky.fail.Store(true)
	svc := serviceWith(f, flaky, clock, 1)
	runService(t, svc)
	<-svc.Resumed()
	if n, armed := svc.Live(), clock.Pending(); n != 0 || armed != 0 {
		t.Fatalf("after a failed resume: %d tables in memory and %d deadlines armed, want none", n, armed)
	}
	flaky.fail.Store(false) // the disk is back
	ctx := context.Background()
	connected(t, f, func() error { return f.Command(ctx, bottest.Bob, thread, "status", nil) })
	if got := lastPrivate(t, f, bottest.Bob); !strings.Contains(got, "running") {
		t.Errorf("Bob's status reads %q", got)
	}
	if n, armed := svc.Live(), clock.Pending(); n != 1 || armed != 1 {
		t.Errorf("after the first event: %d tables in memory and %d deadlines armed, want 1 and 1", n, armed)
	}
}

// flakyStore fails every read of a log while fail is set.
type flakyStore struct {
	*store.DB
	fail atomic.Bool
}

func (s *flakyStore) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	if s.fail.Load() {
		return nil, errors.New("disk hiccup")
	}
	return s.DB.Load(ctx, table)
}

func (s *flakyStore) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	if s.fail.Load() {
		return nil, nil, errors.New("disk hiccup")
	}
	return s.DB.LoadSnapshot(ctx, table)
}

func (s *flakyStore) LoadRecentSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	if s.fail.Load() {
		return nil, nil, errors.New("disk hiccup")
	}
	return s.DB.LoadRecentSnapshot(ctx, table, keep)
}

// serviceWith is bottest.Service with a number of resume workers.
func serviceWith(p bot.Platform, db bot.Store, clock bot.Clock, workers int) *bot.Service {
	cfg := bot.Config{
		Defaults: roundtable.Config{Rule: vote.Plurality, Rounds: 2, Mode: roundtable.Sealed,
			Durations: roundtable.Durations{Message: 2 * time.Minute, Proposal: 2 * time.Minute, Vote: 2 * time.Minute}},
		ResumeWorkers: workers,
	}
	deps := bot.Deps{Store: db, Clock: clock,
		Agent: func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) { return bottest.Scribe{}, nil },
		Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			return roundtable.TextTask{Topic: spec.Topic}, nil
		}}
	return bot.New(cfg, deps, p)
}

// forgetful is the fake platform as a bot.Forgetter.
type forgetful struct {
	*bottest.Fake
	mu   sync.Mutex
	gone []string
}

func (f *forgetful) Forget(channel string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gone = append(f.gone, channel)
}

func (f *forgetful) forgotten() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.gone...)
}

// gatedStore holds every read of the log of the first table read until
// open is closed.
type gatedStore struct {
	*store.DB
	once    sync.Once
	table   string        // set at the first Load
	reached chan struct{} // closed at the first Load
	open    chan struct{}
}

func (g *gatedStore) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	g.gate(table)
	return g.DB.Load(ctx, table)
}

func (g *gatedStore) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	g.gate(table)
	return g.DB.LoadSnapshot(ctx, table)
}

func (g *gatedStore) LoadRecentSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	g.gate(table)
	return g.DB.LoadRecentSnapshot(ctx, table, keep)
}

func (g *gatedStore) gate(table string) {
	g.once.Do(func() {
		g.table = table
		close(g.reached)
	})
	if table == g.table {
		<-g.open
	}
}

func openDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	must(t, err)
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("store check: %v", err)
		}
		_ = db.Close()
	})
	return db
}

func newClock() *bottest.Clock {
	return bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
}

// runService runs svc until the test ends or stop is called.
func runService(t *testing.T, svc *bot.Service) (stop func()) {
	stop = sync.OnceFunc(bottest.Serve(t, svc))
	t.Cleanup(stop)
	return stop
}

// connected retries act until the fake platform is connected to the
// service (Run has handed it the handler).
func connected(t testing.TB, f *bottest.Fake, act func() error) {
	t.Helper()
	for err := act(); err != nil; err = act() {
		if !strings.Contains(err.Error(), "not connected") {
			t.Fatal(err)
		}
		<-f.Updates()
	}
}

// startTable starts a table as Alice in the fake's channel and returns
// its thread.
func startTable(t *testing.T, f *bottest.Fake, opts map[string]string) string {
	t.Helper()
	before := len(f.Threads(f.Channel()))
	connected(t, f, func() error { return f.Command(context.Background(), bottest.Alice, f.Channel(), "start", opts) })
	threads := f.Threads(f.Channel())
	if len(threads) != before+1 {
		t.Fatalf("start opened %d threads, want 1: %q", len(threads)-before, lastPrivate(t, f, bottest.Alice))
	}
	thread := threads[len(threads)-1]
	connected(t, f, func() error { return f.Command(context.Background(), bottest.Alice, thread, "begin", nil) })
	return thread
}
