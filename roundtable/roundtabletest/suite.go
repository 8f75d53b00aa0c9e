package roundtabletest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// StoreSuite checks that a roundtable.Store keeps its contract. open must
// return a new, empty store for each call (it is called once per subtest)
// and arrange its cleanup with t.Cleanup. Run it with -race.
//
// Besides what the Store interface documents, the suite requires that
// Tables lists tables oldest first (by Summary.Created, then ID) and that
// every method fails, wrapping ctx.Err(), when its context is already done.
func StoreSuite(t *testing.T, open func(t *testing.T) roundtable.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s roundtable.Store)
	}{
		{"LoadReturnsWhatWasAppended", testRoundTrip},
		{"FailedAppendStoresNothing", testAtomic},
		{"WrongSeqIsConflict", testConflict},
		{"UnknownTableIsNotFound", testNotFound},
		{"TablesFollowSummarize", testTables},
		{"TablesAreOldestFirst", testTablesOrder},
		{"ConcurrentTablesStayGapless", testConcurrentTables},
		{"RacingWritersLoseNothing", testRacingWriters},
		{"DoneContextIsError", testCancelled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.fn(t, open(t)) })
	}
}

// recorder remembers every event a store accepted.
type recorder struct {
	roundtable.Store
	mu     sync.Mutex
	events []roundtable.Event
}

func (r *recorder) Append(ctx context.Context, table string, events []roundtable.Event) error {
	err := r.Store.Append(ctx, table, events)
	if err == nil {
		r.mu.Lock()
		r.events = append(r.events, events...)
		r.mu.Unlock()
	}
	return err
}

func newClock() *Clock { return NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)) }

func testRoundTrip(t *testing.T, s roundtable.Store) {
	ctx := t.Context()
	rec := &recorder{Store: s}
	tbl, err := PlayTable(ctx, rec, newClock(), "t1", 2)
	if err != nil {
		t.Fatal(err)
	}
	got := mustLoad(t, s, "t1")
	if len(got) != len(rec.events) {
		t.Fatalf("Load returned %d events, %d were appended", len(got), len(rec.events))
	}
	for i := range got {
		if g, w := MustJSON(t, got[i]), MustJSON(t, rec.events[i]); g != w {
			t.Errorf("event %d:\n got %s\nwant %s", i+1, g, w)
		}
	}
	st, err := roundtable.Replay(got)
	if err != nil {
		t.Fatalf("replay loaded log: %v", err)
	}
	if g, w := MustJSON(t, st), MustJSON(t, tbl.Snapshot()); g != w {
		t.Errorf("replayed state differs from the moderator's:\n got %s\nwant %s", g, w)
	}
}

func testAtomic(t *testing.T, s roundtable.Store) {
	ctx := t.Context()
	startTable(t, s, "t1")
	bad := [][]roundtable.Event{
		{message("t1", 3), message("t1", 5)},
		{message("t1", 3), message("t1", 3)},
		{message("t1", 3), message("t1", 4), message("t1", 2)},
	}
	for _, batch := range bad {
		err := s.Append(ctx, "t1", batch)
		if code := roundtable.ErrorCode(err); code != roundtable.Conflict {
			t.Errorf("Append(seqs %v) = %v (code %q), want code %q", seqs(batch), err, code, roundtable.Conflict)
		}
		if n := len(mustLoad(t, s, "t1")); n != 2 {
			t.Fatalf("after a failed Append(seqs %v) the log has %d events, want 2", seqs(batch), n)
		}
	}
	err := s.Append(ctx, "t2", []roundtable.Event{created("t2", time.Now()), message("t2", 3)})
	if err == nil {
		t.Fatal("Append(seqs 1, 3) to a new table succeeded")
	}
	if _, err := s.Load(ctx, "t2"); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("a failed first Append left table t2 behind: Load = %v", err)
	}
}

func testConflict(t *testing.T, s roundtable.Store) {
	ctx := t.Context()
	startTable(t, s, "t1")
	for _, seq := range []uint64{0, 1, 2, 4} {
		err := s.Append(ctx, "t1", []roundtable.Event{message("t1", seq)})
		if code := roundtable.ErrorCode(err); code != roundtable.Conflict {
			t.Errorf("Append(seq %d) after seq 2 = %v (code %q), want code %q", seq, err, code, roundtable.Conflict)
		}
	}
	if err := s.Append(ctx, "t1", []roundtable.Event{message("t1", 3), message("t1", 4)}); err != nil {
		t.Fatalf("Append(seqs 3, 4) after seq 2: %v", err)
	}
	if n := len(mustLoad(t, s, "t1")); n != 4 {
		t.Errorf("log has %d events, want 4", n)
	}
}

func testNotFound(t *testing.T, s roundtable.Store) {
	ctx := t.Context()
	_, err := s.Load(ctx, "nope")
	if code := roundtable.ErrorCode(err); code != roundtable.NotFound {
		t.Errorf("Load(unknown) = %v (code %q), want code %q", err, code, roundtable.NotFound)
	}
	sums, err := s.Tables(ctx)
	if err != nil || len(sums) != 0 {
		t.Errorf("Tables() of an empty store = %v, %v; want none", sums, err)
	}
}

func testTables(t *testing.T, s roundtable.Store) {
	ctx := t.Context()
	clock := newClock()
	tbl, err := roundtable.Create(ctx, s, clock, SampleTask(), "t1", SampleConfig(2))
	if err != nil {
		t.Fatal(err)
	}
	want := roundtable.Summary{ID: "t1", Title: "Empty lot", Status: roundtable.StatusCreated, Task: "text",
		Rule: "plurality", Rounds: 2, Participants: 3, Events: 1, Created: clock.Now(), Updated: clock.Now()}
	checkSummary(t, s, "created", want)

	clock.Advance(time.Minute)
	if err := tbl.Join(ctx, SampleJoiner(), ""); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	want.Status, want.Round, want.Participants, want.Events, want.Updated = roundtable.StatusRunning, 1, 4, 3, clock.Now()
	want.Started = clock.Now()
	checkSummary(t, s, "started", want)

	for range 2 {
		if err := PlayRound(ctx, tbl, clock); err != nil {
			t.Fatal(err)
		}
	}
	want.Status, want.Round, want.Output, want.Updated = roundtable.StatusEnded, 2, "Plant trees", clock.Now()
	want.Events = uint64(len(mustLoad(t, s, "t1")))
	checkSummary(t, s, "ended", want)
}

// checkSummary compares the store's one summary with want and with
// Summarize over the stored log.
func checkSummary(t *testing.T, s roundtable.Store, when string, want roundtable.Summary) {
	t.Helper()
	sums, err := s.Tables(t.Context())
	if err != nil {
		t.Fatalf("%s: Tables: %v", when, err)
	}
	if len(sums) != 1 {
		t.Fatalf("%s: Tables returned %d summaries, want 1", when, len(sums))
	}
	if g, w := MustJSON(t, sums[0]), MustJSON(t, want); g != w {
		t.Errorf("%s: summary\n got %s\nwant %s", when, g, w)
	}
	folded := roundtable.Summarize(roundtable.Summary{}, mustLoad(t, s, want.ID))
	if g, w := MustJSON(t, sums[0]), MustJSON(t, folded); g != w {
		t.Errorf("%s: summary is not Summarize(log)\n got %s\nwant %s", when, g, w)
	}
}

func testTablesOrder(t *testing.T, s roundtable.Store) {
	ctx := t.Context()
	clock := newClock()
	for _, id := range []string{"t-c", "t-a", "t-e", "t-d"} {
		if _, err := roundtable.Create(ctx, s, clock, SampleTask(), id, SampleConfig(1)); err != nil {
			t.Fatal(err)
		}
		if id != "t-e" { // t-e and t-d are created at the same instant
			clock.Advance(time.Second)
		}
	}
	sums, err := s.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sum := range sums {
		got = append(got, sum.ID)
	}
	if want := "[t-c t-a t-d t-e]"; fmt.Sprint(got) != want {
		t.Errorf("Tables() order = %v, want %s (by Created, then ID)", got, want)
	}
}

func testCancelled(t *testing.T, s roundtable.Store) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := s.Append(ctx, "t1", []roundtable.Event{created("t1", time.Now())})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Append with a cancelled context = %v, want context.Canceled", err)
	}
	if _, err := s.Load(t.Context(), "t1"); roundtable.ErrorCode(err) != roundtable.NotFound {
		t.Errorf("Append with a cancelled context stored the table: Load = %v", err)
	}
	startTable(t, s, "t2")
	if _, err := s.Load(ctx, "t2"); !errors.Is(err, context.Canceled) {
		t.Errorf("Load with a cancelled context = %v, want context.Canceled", err)
	}
	if _, err := s.Tables(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Tables with a cancelled context = %v, want context.Canceled", err)
	}
}
