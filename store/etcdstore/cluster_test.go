package etcdstore_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
	"github.com/roundtable-ai/roundtable/store/etcdstore/etcdtest"
)

// TestThreeMembersLoseOne writes a table on a three-member cluster, stops
// a member and writes on: the store goes on with the two left, an append
// retried after an error with an unknown outcome lands once, and a store
// on another member reads the whole log.
func TestThreeMembersLoseOne(t *testing.T) {
	ctx := t.Context()
	c, err := etcdtest.Start(t.TempDir(), etcdtest.Options{Members: 3, NoFsync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s := c.Open(t, etcdstore.Options{})
	started(t, s, "t1")
	seq := uint64(3)
	for i := range 20 {
		if i == 10 {
			c.Stop(0)
		}
		appendRetrying(ctx, t, s, messages("t1", seq, 5, fmt.Sprint(i)))
		seq += 5
	}
	// An append whose reply was lost is retried as it was: it lands once.
	again := messages("t1", seq-5, 5, "19")
	if err := s.Append(ctx, "t1", again); err != nil {
		t.Errorf("retrying the last append: %v", err)
	}
	other := c.Open(t, etcdstore.Options{Endpoints: c.Endpoints()[2:], Prefix: s.Prefix()})
	events, err := other.Load(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != int(seq-1) {
		t.Fatalf("%d events, want %d", len(events), seq-1)
	}
	for i, e := range events[2:] {
		if want := fmt.Sprintf("%d %d", i/5, i%5); e.Data.(roundtable.MessagePosted).Text != want {
			t.Fatalf("event %d says %q, want %q", e.Seq, e.Data.(roundtable.MessagePosted).Text, want)
		}
	}
}

// appendRetrying appends events, again after errors other than Conflict
// (a member going away, an election), as the moderator's caller would.
func appendRetrying(ctx context.Context, t *testing.T, s *etcdstore.DB, events []roundtable.Event) {
	t.Helper()
	var err error
	for range 20 {
		if err = s.Append(ctx, "t1", events); err == nil || roundtable.ErrorCode(err) != roundtable.Internal {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}
