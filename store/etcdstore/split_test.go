package etcdstore_test

import (
	"fmt"
	"strings"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// TestLongSnapshotStateIsSplit plays a table whose state is longer than
// half a transaction: its snapshot's state is stored in parts, a newer
// snapshot replaces the older's parts, and the table opens from it as
// replayed.
func TestLongSnapshotStateIsSplit(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	s := openTest(t, etcdstore.Options{MaxRequestBytes: 64 << 10})
	topic := strings.Repeat("what should the town do with the empty lot? ", 800) // 36 KB
	cfg := roundtabletest.SampleConfig(24)
	cfg.Task.Topic = topic
	clock := roundtabletest.NewClock(when)
	tbl, err := roundtable.Create(ctx, s, clock, roundtable.TextTask{Topic: topic}, "t1", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tbl.Join(ctx, roundtabletest.SampleJoiner(), "slack:join:t1"); err != nil {
		t.Fatal(err)
	}
	if err := tbl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for range 24 {
		if err := roundtabletest.PlayRound(ctx, tbl, clock); err != nil {
			t.Fatal(err)
		}
	}
	parts, err := s.Client().Get(ctx, s.Prefix()+"snappart/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatal(err)
	}
	snap, _, err := s.LoadSnapshot(ctx, "t1")
	if err != nil || snap == nil {
		t.Fatalf("LoadSnapshot = %v, %v", snap, err)
	}
	if snap.Seq < 2*roundtable.SnapshotEvery {
		t.Fatalf("the latest snapshot is at seq %d: the table took one snapshot, the test checks nothing", snap.Seq)
	}
	if len(parts.Kvs) < 2 {
		t.Fatalf("%d parts stored; the state was not split", len(parts.Kvs))
	}
	for _, kv := range parts.Kvs {
		if want := s.Prefix() + "snappart/t1/" + fmt.Sprintf("%016x", snap.Seq) + "/"; !strings.HasPrefix(string(kv.Key), want) {
			t.Errorf("part %s is not of the latest snapshot (seq %d)", kv.Key, snap.Seq)
		}
	}
	events, err := s.Load(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	opened, err := roundtable.Open(ctx, s, clock, roundtable.TextTask{Topic: topic}, "t1")
	if err != nil {
		t.Fatal(err)
	}
	full, err := opened.Full(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := roundtabletest.MustJSON(t, full), roundtabletest.MustJSON(t, roundtabletest.MustReplay(t, events)); g != w {
		t.Fatal("the table opened from a split snapshot differs from its replayed log")
	}
}
