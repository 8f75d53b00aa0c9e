package bot_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

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

// A table resumed from its snapshot, every post before it delivered, reads
// only the delivery records of its recent rounds, and still posts and
// edits everything that comes after, once each.
func TestResumedTableReadsOnlyItsRecentDeliveryRecords(t *testing.T) {
	e := newDeliveryEnv(t)
	thread, id := e.pastSnapshot()
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
