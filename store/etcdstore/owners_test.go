package etcdstore_test

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// member opens a store on prefix (a new one when empty) and joins its
// cluster with a lease longer than any stall of a loaded machine (these
// tests let leases go by revoking them); it leaves when the test ends.
func member(t *testing.T, prefix, web string) (*etcdstore.DB, *etcdstore.Cluster) {
	t.Helper()
	db := openTest(t, etcdstore.Options{Prefix: prefix})
	c, err := db.Join(t.Context(), etcdstore.ClusterOptions{TTL: 10 * time.Second, Addrs: map[string]string{"web": web}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Leave(context.Background()) })
	return db, c
}

// next waits for the next change of kind (others are skipped).
func next(t *testing.T, c *etcdstore.Cluster, kind etcdstore.ChangeKind) etcdstore.Change {
	t.Helper()
	for ch := range c.Changes() {
		if ch.Kind == kind {
			return ch
		}
	}
	t.Fatalf("the changes ended before one of kind %d", kind)
	return etcdstore.Change{}
}

// TestTableHasOneOwner acquires a table from two members: the second is
// refused and told who owns it, and only the owner may append to it.
func TestTableHasOneOwner(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, ca := member(t, "", "http://a")
	b, cb := member(t, a.Prefix(), "http://b")
	if err := a.Append(ctx, "t1", messages("t1", 1, 1, "unowned")); !errors.Is(err, etcdstore.ErrFenced) {
		t.Fatalf("an append to a table no one owns = %v, want ErrFenced", err)
	}
	if ok, err := ca.Acquire(ctx, "t1"); !ok || err != nil {
		t.Fatalf("a acquires t1: %t, %v", ok, err)
	}
	if ok, err := ca.Acquire(ctx, "t1"); !ok || err != nil {
		t.Fatalf("a acquires t1 again: %t, %v", ok, err)
	}
	if ok, err := cb.Acquire(ctx, "t1"); ok || err != nil {
		t.Fatalf("b acquires a's table: %t, %v", ok, err)
	}
	m, ok, err := cb.Owner(ctx, "t1")
	if err != nil || !ok || m.ID != ca.ID() || m.Addrs["web"] != "http://a" {
		t.Fatalf("b sees t1 owned by %+v, %t, %v; want a at http://a", m, ok, err)
	}
	started(t, a, "t1")
	if err := b.Append(ctx, "t1", messages("t1", 3, 1, "b")); !errors.Is(err, etcdstore.ErrFenced) || roundtable.ErrorCode(err) != roundtable.Conflict {
		t.Fatalf("b appends to a's table: %v, want ErrFenced", err)
	}
	if err := ca.Release(ctx, "t1"); err != nil {
		t.Fatal(err)
	}
	if ch := next(t, cb, etcdstore.Orphaned); ch.Table != "t1" {
		t.Fatalf("b is told %+v, want t1 orphaned", ch)
	}
	if ok, err := cb.Acquire(ctx, "t1"); !ok || err != nil {
		t.Fatalf("b acquires the released table: %t, %v", ok, err)
	}
	if err := b.Append(ctx, "t1", messages("t1", 3, 1, "b")); err != nil {
		t.Fatalf("b appends to its table: %v", err)
	}
	if err := a.Append(ctx, "t1", messages("t1", 4, 1, "a")); !errors.Is(err, etcdstore.ErrFenced) {
		t.Fatalf("a appends to the table it released: %v, want ErrFenced", err)
	}
}

// TestDeadMembersTablesGoToOthers lets a member's lease lapse, as it does
// when the process dies: the other is told its tables are orphaned and
// takes them, and the first, told it lost them, writes nothing more and
// goes on with a new lease.
func TestDeadMembersTablesGoToOthers(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	a, ca := member(t, "", "")
	b, cb := member(t, a.Prefix(), "")
	for _, id := range []string{"t1", "t2"} {
		if ok, err := ca.Acquire(ctx, id); !ok || err != nil {
			t.Fatalf("acquire %s: %t, %v", id, ok, err)
		}
		started(t, a, id)
	}
	if _, err := a.Client().Revoke(ctx, ca.Lease()); err != nil {
		t.Fatal(err)
	}
	var orphaned []string
	for len(orphaned) < 2 {
		orphaned = append(orphaned, next(t, cb, etcdstore.Orphaned).Table)
	}
	slices.Sort(orphaned)
	if !slices.Equal(orphaned, []string{"t1", "t2"}) {
		t.Fatalf("orphaned %v, want t1 and t2", orphaned)
	}
	var lost []string
	for len(lost) < 2 {
		lost = append(lost, next(t, ca, etcdstore.Lost).Table)
	}
	if err := a.Append(ctx, "t1", messages("t1", 3, 1, "late")); !errors.Is(err, etcdstore.ErrFenced) {
		t.Fatalf("an append after the lease lapsed = %v, want ErrFenced", err)
	}
	if ok, err := cb.Acquire(ctx, "t1"); !ok || err != nil {
		t.Fatalf("b takes t1 over: %t, %v", ok, err)
	}
	if err := b.Append(ctx, "t1", messages("t1", 3, 1, "b")); err != nil {
		t.Fatal(err)
	}
	next(t, ca, etcdstore.Rescan) // a has a new lease
	if ok, err := ca.Acquire(ctx, "t2"); !ok || err != nil {
		t.Fatalf("a, with its new lease, acquires t2: %t, %v", ok, err)
	}
}

// TestUnitHasOneHolder holds a unit from two members: the second waits
// until the first lets it go.
func TestUnitHasOneHolder(t *testing.T) {
	t.Parallel()
	a, ca := member(t, "", "")
	_, cb := member(t, a.Prefix(), "")
	actx, stopA := context.WithCancel(t.Context())
	lostA, err := ca.Hold(actx, "discord/shard/0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan error, 1)
	go func() {
		_, err := cb.Hold(t.Context(), "discord/shard/0")
		held <- err
	}()
	select {
	case err := <-held:
		t.Fatalf("b holds the unit a holds (%v)", err)
	case <-lostA:
		t.Fatal("a lost the unit")
	case <-time.After(100 * time.Millisecond): // b waits, as it should
	}
	stopA()
	<-lostA
	if err := <-held; err != nil {
		t.Fatalf("b holds the unit a let go: %v", err)
	}
}

// TestPaceSpacesPasses passes a unit from two members: no two passes, as
// the cluster recorded them, are closer than the pace.
func TestPaceSpacesPasses(t *testing.T) {
	t.Parallel()
	const every = 100 * time.Millisecond
	a, ca := member(t, "", "")
	_, cb := member(t, a.Prefix(), "")
	done := make(chan error, 2)
	for _, c := range []*etcdstore.Cluster{ca, cb} {
		go func() {
			for range 3 {
				if err := c.Pace(t.Context(), "identify/0", every); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	// Every pass wrote its time: read them back from the key's history.
	wctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var ts []int64
	for resp := range a.Client().Watch(wctx, a.Prefix()+"pace/identify%2F0", clientv3.WithRev(1)) {
		for _, ev := range resp.Events {
			n, _ := strconv.ParseInt(string(ev.Kv.Value), 10, 64)
			ts = append(ts, n)
		}
		if len(ts) >= 6 {
			break
		}
	}
	for i := 1; i < len(ts); i++ {
		if gap := time.Duration(ts[i] - ts[i-1]); gap < every {
			t.Errorf("passes %d and %d are %s apart, less than %s", i-1, i, gap, every)
		}
	}
}
