package etcdstore_test

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
	"github.com/roundtable-ai/roundtable/store/storetest"
)

var when = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// messages are table's events from seq on, n of them, each text tagged.
func messages(table string, seq uint64, n int, tag string) []roundtable.Event {
	out := make([]roundtable.Event, n)
	for i := range out {
		out[i] = roundtable.Event{Table: table, Seq: seq + uint64(i), Time: when, Actor: "bot-1",
			Data: roundtable.MessagePosted{Round: 1, Text: fmt.Sprintf("%s %d", tag, i)}}
	}
	return out
}

// started appends a sample table's first two events to s.
func started(t *testing.T, s roundtable.Store, table string) {
	t.Helper()
	tbl, err := roundtable.Create(t.Context(), s, roundtabletest.NewClock(when), roundtabletest.SampleTask(), table, roundtabletest.SampleConfig(1))
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// TestSecondWriterIsFenced has two processes (two stores, each with its
// own cache of heads) write one table: the one whose head is stale gets
// Conflict for a seq the other took, and writes once it follows the log.
func TestSecondWriterIsFenced(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := openTest(t, etcdstore.Options{})
	b := openTest(t, etcdstore.Options{Prefix: a.Prefix()})
	started(t, a, "t1")
	if err := b.Append(ctx, "t1", messages("t1", 3, 1, "b")); err != nil {
		t.Fatal(err)
	}
	before, err := a.Head(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	err = a.Append(ctx, "t1", messages("t1", 3, 1, "a")) // a's cache says seq 2
	if roundtable.ErrorCode(err) != roundtable.Conflict {
		t.Fatalf("a stale writer's append = %v, want Conflict", err)
	}
	if err := a.Append(ctx, "t1", messages("t1", 4, 1, "a")); err != nil {
		t.Fatalf("an append that follows the log after a stale cache: %v", err)
	}
	after, err := b.Head(ctx, "t1")
	if err != nil || after.Seq != 4 || after.Revision <= before.Revision {
		t.Errorf("head %+v (%v), want seq 4 at a revision after %d", after, err, before.Revision)
	}
	events, err := b.Load(ctx, "t1")
	if err != nil || len(events) != 4 || events[2].Data.(roundtable.MessagePosted).Text != "b 0" {
		t.Fatalf("log: %d events, %v", len(events), err)
	}
}

// TestLongAppendsDoNotMix races writers of appends too long for one
// transaction on one table, from separate stores: each seq range ends up
// wholly one writer's, never parts of two.
func TestLongAppendsDoNotMix(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	first := openTest(t, etcdstore.Options{})
	started(t, first, "t1")
	const writers, batch, rounds = 4, 300, 3
	var wg sync.WaitGroup
	for w := range writers {
		s := openTest(t, etcdstore.Options{Prefix: first.Prefix()})
		wg.Go(func() {
			for done := 0; done < rounds; {
				h, err := s.Head(ctx, "t1")
				if err != nil {
					t.Error(err)
					return
				}
				err = s.Append(ctx, "t1", messages("t1", h.Seq+1, batch, fmt.Sprintf("w%d-%d", w, done)))
				switch roundtable.ErrorCode(err) {
				case "":
					done++
				case roundtable.Conflict:
				default:
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	events, err := first.Load(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 + writers*rounds*batch; len(events) != want {
		t.Fatalf("%d events, want %d", len(events), want)
	}
	for i := 2; i < len(events); i += batch {
		tag := tagOf(events[i])
		for _, e := range events[i : i+batch] {
			if tagOf(e) != tag {
				t.Fatalf("events %d-%d mix %q and %q", i+1, i+batch, tag, tagOf(e))
			}
		}
	}
}

func tagOf(e roundtable.Event) string {
	text := e.Data.(roundtable.MessagePosted).Text
	return text[:strings.LastIndexByte(text, ' ')]
}

// TestReadersSeeWholeAppends reads a table while long appends (several
// transactions each) go on: every read sees whole appends only.
func TestReadersSeeWholeAppends(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	w := openTest(t, etcdstore.Options{MaxTxnOps: 16})
	r := openTest(t, etcdstore.Options{Prefix: w.Prefix()})
	started(t, w, "t1")
	const batch, appends = 100, 20
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range appends {
			if err := w.Append(ctx, "t1", messages("t1", uint64(3+i*batch), batch, fmt.Sprint(i))); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for reads := 0; ; reads++ {
		select {
		case <-done:
			if reads == 0 {
				t.Error("no read happened during the appends")
			}
			return
		default:
		}
		events, err := r.Load(ctx, "t1")
		if err != nil {
			t.Fatal(err)
		}
		if (len(events)-2)%batch != 0 {
			t.Fatalf("a read saw %d events: part of an append", len(events))
		}
		sums, err := r.Tables(ctx)
		if err != nil || len(sums) != 1 || (sums[0].Events-2)%batch != 0 {
			t.Fatalf("Tables saw %+v, %v", sums, err)
		}
	}
}

// TestGuardFencesWrites writes with a guard that compares an owner key,
// as an ownership layer would: once another process owns the table, the
// store writes nothing more, in one transaction or in several.
func TestGuardFencesWrites(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	prefix := cluster.Prefix(t)
	owner := prefix + "owner/t1"
	guard := func(string) []clientv3.Cmp { return []clientv3.Cmp{clientv3.Compare(clientv3.Value(owner), "=", "me")} }
	s := openTest(t, etcdstore.Options{Prefix: prefix, Guard: guard, MaxTxnOps: 16})
	if _, err := s.Client().Put(ctx, owner, "me"); err != nil {
		t.Fatal(err)
	}
	started(t, s, "t1")
	if _, err := s.Client().Put(ctx, owner, "someone else"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 100} {
		err := s.Append(ctx, "t1", messages("t1", 3, n, "late"))
		if !errors.Is(err, etcdstore.ErrFenced) || roundtable.ErrorCode(err) != roundtable.Conflict {
			t.Errorf("an append of %d events after losing the table = %v, want ErrFenced with code conflict", n, err)
		}
	}
	if events, err := s.Load(ctx, "t1"); err != nil || len(events) != 2 {
		t.Errorf("after fenced appends: %d events, %v; want 2", len(events), err)
	}
}

// TestTooLargeEventIsRefused appends an event larger than one etcd
// request: a precise error, nothing stored, the table goes on.
func TestTooLargeEventIsRefused(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := openTest(t, etcdstore.Options{})
	started(t, s, "t1")
	big := messages("t1", 3, 1, strings.Repeat("x", 2<<20))
	err := s.Append(ctx, "t1", big)
	if roundtable.ErrorCode(err) != roundtable.Invalid || !strings.Contains(err.Error(), "max-request-bytes") {
		t.Errorf("a 2 MiB event = %v, want Invalid naming the limit", err)
	}
	if err := s.Append(ctx, "t1", messages("t1", 3, 1, "small")); err != nil {
		t.Errorf("the next append: %v", err)
	}
}

// TestSuiteInSmallTransactions runs the suite with limits so small that
// most appends, snapshots and batches of blobs take several transactions,
// and long snapshot states are split into parts.
func TestSuiteInSmallTransactions(t *testing.T) {
	t.Parallel()
	storetest.Run(t, backend(etcdstore.Options{MaxTxnOps: 8, MaxRequestBytes: 64 << 10}))
}
