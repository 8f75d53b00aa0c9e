package bot_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
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
	if got := lastPrivate(fake, bottest.Bob); !strings.Contains(got, ": ended") {
		t.Errorf("Bob's status reads %q, want the ended table", got)
	}
	if got := lastPrivate(fake, bottest.Alice); !strings.Contains(got, `"table_ended"`) {
		t.Errorf("Alice's export reads %q, want the log up to its end", got)
	}
	if n := svc.Live(); n != 0 {
		t.Errorf("%d tables in memory after status and export of an ended table, want 0", n)
	}
}

// TestResumeServesWhileTablesOpen restarts the service with two open
// tables while one of them cannot be read yet: the platform serves at
// once, an event for the other table is answered, an event for the
// blocked table waits for that table only, and Resumed closes once both
// are resumed.
func TestResumeServesWhileTablesOpen(t *testing.T) {
	db, clock, f := openDB(t), newClock(), bottest.NewFake()
	first := bottest.Service(f, db, clock, nil)
	stop := runService(t, first)
	threadA := startTable(t, f, map[string]string{"topic": "A?"})
	threadB := startTable(t, f, map[string]string{"topic": "B?"})
	stop()

	ctx := context.Background()
	tableA, _, err := db.Lookup(ctx, "fake:"+threadA)
	must(t, err)
	gate := &gatedStore{DB: db, table: tableA, reached: make(chan struct{}), open: make(chan struct{})}
	svc := bottest.Service(f, gate, clock, nil)
	runService(t, svc)
	<-gate.reached // resume is opening table A, and stays there
	connected(t, f, func() error { return f.Command(ctx, bottest.Bob, threadB, "status", nil) })
	if got := lastPrivate(f, bottest.Bob); !strings.Contains(got, "B?") || !strings.Contains(got, "running") {
		t.Errorf("Bob's status of table B reads %q", got)
	}
	select {
	case <-svc.Resumed():
		t.Fatal("Resumed closed while table A was still being opened")
	default:
	}
	done := make(chan error, 1)
	go func() { done <- f.Command(ctx, bottest.Carol, threadA, "status", nil) }()
	close(gate.open)
	must(t, <-done)
	if got := lastPrivate(f, bottest.Carol); !strings.Contains(got, "A?") || !strings.Contains(got, "running") {
		t.Errorf("Carol's status of table A reads %q", got)
	}
	<-svc.Resumed()
	if n := svc.Live(); n != 2 {
		t.Errorf("%d tables in memory after resume, want 2", n)
	}
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

// gatedStore holds every Load of one table until open is closed.
type gatedStore struct {
	*store.DB
	table   string
	once    sync.Once
	reached chan struct{} // closed at the table's first Load
	open    chan struct{}
}

func (g *gatedStore) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	if table == g.table {
		g.once.Do(func() { close(g.reached) })
		<-g.open
	}
	return g.DB.Load(ctx, table)
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
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("service: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// connected retries act until the fake platform is connected to the
// service (Run has handed it the handler).
func connected(t *testing.T, f *bottest.Fake, act func() error) {
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
		t.Fatalf("start opened %d threads, want 1: %q", len(threads)-before, lastPrivate(f, bottest.Alice))
	}
	return threads[len(threads)-1]
}

func lastPrivate(f *bottest.Fake, u bottest.User) string {
	pv := f.Private(u)
	if len(pv) == 0 {
		return ""
	}
	return pv[len(pv)-1].Text
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
