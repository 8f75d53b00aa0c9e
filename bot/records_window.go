package bot

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// A table resumed from a snapshot plans only the posts of the events after
// it, which belong to the snapshot's round or later ones; when every post
// the log implied up to the snapshot was delivered (the watermark), the
// delivery records of earlier rounds are never asked for. Loading only the
// records of the rounds from the one before the snapshot's on (and those
// of no round: the intro, the end, the watermark) keeps a resumed table's
// records, in memory and in the pages read, as small at round 100 as at
// round 1.

// roundWindow is the rounds whose delivery records a resumed table needs:
// from..to, and the snapshot's seq, which the watermark must reach. The
// zero window needs them all.
type roundWindow struct {
	from, to int
	seq      uint64
}

// window is the round window of what was read: the snapshot's round (less
// one) to the last round the events after it open.
func (o *observed) window() roundWindow {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.snap == nil || o.snap.Round < 2 {
		return roundWindow{}
	}
	w := roundWindow{from: o.snap.Round - 1, to: o.snap.Round, seq: o.snap.Seq}
	for _, e := range o.loaded {
		if d, ok := e.Data.(roundtable.PhaseOpened); ok {
			w.to = max(w.to, d.Round)
		}
	}
	return w
}

// rangeStore is a store that reads slices of a namespace (store.DB): each
// range is from (included) to (excluded).
type rangeStore interface {
	BlobRanges(ctx context.Context, ns string, ranges [][2]string) (map[string][]byte, error)
}

// prefixRange is the range of the keys that start with prefix, which ends
// in a byte below 0xff.
func prefixRange(prefix string) [2]string {
	end := []byte(prefix)
	end[len(end)-1]++
	return [2]string{prefix, string(end)}
}

// deliveryRecords reads table's delivery records, those of w's rounds only
// when the store can and the watermark says the earlier ones are all
// delivered. It returns the first round whose records were read (0: all).
func (s *Service) deliveryRecords(ctx context.Context, table string, w roundWindow) (map[string][]byte, int, error) {
	rs, ok := s.deps.Store.(rangeStore)
	if !ok || w.from == 0 {
		raw, err := s.deps.Store.Blobs(ctx, postsNS, table+"/")
		return raw, 0, err
	}
	p := table + "/"
	ranges := [][2]string{{p, p + "r0"}, {p + "r:", prefixRange(p)[1]}} // the records of no round
	for r := w.from; r <= w.to; r++ {
		ranges = append(ranges, prefixRange(fmt.Sprintf("%sr%d/", p, r)))
	}
	raw, err := rs.BlobRanges(ctx, postsNS, ranges)
	if err != nil {
		return nil, 0, err
	}
	if mark, _ := strconv.ParseUint(string(raw[p+watermarkMark]), 10, 64); mark < w.seq {
		raw, err = s.deps.Store.Blobs(ctx, postsNS, p) // the planner folds the whole log
		return raw, 0, err
	}
	return raw, w.from, nil
}

// markRound is the round a delivery mark belongs to ("r12/msg/7" → 12),
// or 0.
func markRound(mark string) int {
	rest, ok := strings.CutPrefix(mark, "r")
	if !ok {
		return 0
	}
	num, _, ok := strings.Cut(rest, "/")
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(num)
	if err != nil || n < 1 {
		return 0
	}
	return n
}
