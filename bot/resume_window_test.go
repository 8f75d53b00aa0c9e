package bot_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// recordReads counts how a store's delivery records are read: whole
// tables (Blobs) or slices of them (BlobRanges).
type recordReads struct {
	*store.DB
	whole, ranges atomic.Int64
}

func (r *recordReads) Blobs(ctx context.Context, ns, prefix string) (map[string][]byte, error) {
	if ns == "posts" && prefix != "" {
		r.whole.Add(1)
	}
	return r.DB.Blobs(ctx, ns, prefix)
}

func (r *recordReads) BlobRanges(ctx context.Context, ns string, ranges [][2]string) (map[string][]byte, error) {
	r.ranges.Add(1)
	return r.DB.BlobRanges(ctx, ns, ranges)
}

// startOn runs the delivery environment's service over st instead of its
// file.
func (e *deliveryEnv) startOn(st bot.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- scribeService(st, e.fake, e.clock, 2, time.Millisecond).Run(ctx) }()
	e.waitFor("the service to connect", func() bool {
		return e.fake.Command(context.Background(), bottest.Carol, "general", "help", nil) == nil
	})
	e.stop = func() {
		cancel()
		if err := <-done; err != nil {
			e.t.Errorf("service: %v", err)
		}
		e.stop = func() {}
	}
}

// A table resumed from its snapshot, every post before it delivered, reads
// only the delivery records of its recent rounds, and still posts and
// edits everything that comes after, once each.
func TestResumedTableReadsOnlyItsRecentDeliveryRecords(t *testing.T) {
	e := newDeliveryEnv(t)
	thread, id := e.startTable(map[string]string{"topic": "Long", "rounds": "30"})
	e.waitFor("round 1 opens", func() bool { return len(e.fake.Posts(thread)) >= 2 })
	for range 55 { // past the first snapshot, the table still open
		e.clock.Advance(phase)
	}
	if n := len(e.events(id)); n <= roundtable.SnapshotEvery {
		t.Fatalf("%d events: the table is too short to have a snapshot", n)
	}
	e.waitFor("the posts so far", func() bool {
		keys, err := bottest.ImpliedPosts(e.events(id))
		return err == nil && len(e.fake.Posts(thread)) >= len(keys)
	})
	e.stop()

	reads := &recordReads{DB: e.db}
	e.startOn(reads)
	e.runOut(id)
	e.checkDelivered(thread, id)
	if n := reads.whole.Load(); n != 0 {
		t.Errorf("the resumed table read all its delivery records %d times, want 0", n)
	}
	if reads.ranges.Load() == 0 {
		t.Error("the resumed table never read its recent delivery records")
	}
	var ends int
	for _, p := range e.fake.Posts(thread) {
		if strings.HasPrefix(p.Text, "**The table has ended") {
			ends++
		}
	}
	if ends != 1 {
		t.Errorf("%d end posts, want 1", ends)
	}
}
