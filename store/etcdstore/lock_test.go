package etcdstore_test

import (
	"errors"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// TestLockIsOneProcessAtATime takes a store's lock from two processes:
// the second is refused while the first holds it, and gets it after.
func TestLockIsOneProcessAtATime(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a := openTest(t, etcdstore.Options{})
	b := openTest(t, etcdstore.Options{Prefix: a.Prefix()})
	la, err := a.Lock(ctx, "serve", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Lock(ctx, "serve", 5*time.Second); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("a second lock = %v, want store.ErrLocked", err)
	}
	if err := la.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	lb, err := b.Lock(ctx, "serve", 5*time.Second)
	if err != nil {
		t.Fatalf("the lock after its holder let go: %v", err)
	}
	if err := lb.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestLostLockFencesWrites revokes the lease of a process's lock, as
// its expiry would after the process was cut off: the process learns it
// lost the lock and writes nothing more.
func TestLostLockFencesWrites(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := openTest(t, etcdstore.Options{})
	l, err := s.Lock(ctx, "serve", 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	started(t, s, "t1")
	if _, err := s.Client().Revoke(ctx, l.Lease()); err != nil {
		t.Fatal(err)
	}
	<-l.Done()
	err = s.Append(ctx, "t1", messages("t1", 3, 1, "late"))
	if !errors.Is(err, etcdstore.ErrFenced) || roundtable.ErrorCode(err) != roundtable.Conflict {
		t.Errorf("an append after losing the lock = %v, want ErrFenced", err)
	}
	if events, err := s.Load(ctx, "t1"); err != nil || len(events) != 2 {
		t.Errorf("after the fenced append: %d events, %v", len(events), err)
	}
}
