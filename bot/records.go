package bot

import (
	"context"
	"maps"
	"strconv"
	"strings"
	"sync"
)

// postsNS is the store namespace of delivery records: "<table>/<mark>" →
// the platform's message ID (empty for an edit).
const postsNS = "posts"

// watermarkMark is the delivery record of a table's watermark: the seq up
// to which every post the log implies was delivered. A table whose
// snapshot is past it opens its planner from the whole log.
const watermarkMark = "@delivered"

// sentLog is what was delivered for one table: mark → message ID; and how
// far the log's posts are all delivered (the watermark).
type sentLog struct {
	table string
	rec   *recorder
	mu    sync.Mutex
	ids   map[string]string
	// before: the records of rounds before it were not read, because they
	// were all delivered (records_window.go); 0: all were read.
	before int
	// pending counts the table's intents in the courier; through is the
	// last event whose intents were all emitted; mark is the watermark.
	pending       int
	through, mark uint64
}

func (s *Service) newSentLog(table string) *sentLog {
	return &sentLog{table: table, rec: s.records, ids: map[string]string{}}
}

// loadSentLog reads a table's delivery records (of the rounds of w), and
// those an earlier version of the bot kept (legacyPostsNS).
func (s *Service) loadSentLog(ctx context.Context, table string, w roundWindow) (*sentLog, error) {
	raw, before, err := s.deliveryRecords(ctx, table, w)
	if err != nil {
		return nil, err
	}
	legacy, err := s.deps.Store.Blobs(ctx, legacyPostsNS(table), "")
	if err != nil {
		return nil, err
	}
	l := s.newSentLog(table)
	l.before = before
	for k, v := range legacy {
		l.ids[k] = string(v)
		// The earlier bot edited a post right after what caused the edit,
		// or never: its edits count as done.
		l.ids[k+"#closed"] = ""
	}
	if _, ok := legacy["end"]; ok {
		l.ids["intro#end"] = ""
	}
	for k, v := range raw {
		l.ids[strings.TrimPrefix(k, table+"/")] = string(v)
	}
	if v, ok := l.ids[watermarkMark]; ok {
		l.mark, _ = strconv.ParseUint(v, 10, 64)
		delete(l.ids, watermarkMark)
	}
	return l, nil
}

// watermark returns the seq up to which every implied post was delivered.
func (l *sentLog) watermark() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.mark
}

// queued counts an intent the courier took.
func (l *sentLog) queued() {
	l.mu.Lock()
	l.pending++
	l.mu.Unlock()
}

// emitted says every intent of the event at seq is queued (or was
// delivered before); settled that the courier is done with one. When none
// is pending, everything implied up to through is delivered.
func (l *sentLog) emitted(seq uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.through = seq
	l.advanceLocked()
}

func (l *sentLog) settled() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending--
	l.advanceLocked()
}

func (l *sentLog) advanceLocked() {
	if l.pending > 0 || l.through <= l.mark {
		return
	}
	l.mark = l.through
	if l.rec != nil {
		l.rec.add(l.table, watermarkMark, strconv.FormatUint(l.mark, 10))
	}
}

// legacyPostsNS is where the bot kept a table's posted IDs before delivery
// records, one fsynced write per post.
func legacyPostsNS(table string) string { return "posts/" + table }

func (l *sentLog) has(mark string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.ids[mark]; ok || l.before == 0 {
		return ok
	}
	r := markRound(mark) // 0: the mark of no round
	return r > 0 && r < l.before
}

func (l *sentLog) id(key string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	id, ok := l.ids[key]
	return id, ok
}

func (l *sentLog) set(mark, id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids[mark] = id
}

// recorder writes delivery records to the store in batches: whatever
// settles while one batch commits goes into the next, so a busy server
// pays one commit for many posts, and no table waits for it.
type recorder struct {
	svc     *Service
	mu      sync.Mutex
	pending map[string][]byte
	kick    chan struct{}
	flushMu sync.Mutex
}

func newRecorder(svc *Service) *recorder {
	return &recorder{svc: svc, pending: map[string][]byte{}, kick: make(chan struct{}, 1)}
}

func (r *recorder) add(table, mark, id string) {
	r.mu.Lock()
	r.pending[table+"/"+mark] = []byte(id)
	r.mu.Unlock()
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// run writes batches until ctx is done, then writes what is left.
func (r *recorder) run(ctx context.Context) {
	wait := r.svc.cfg.retryMin()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.kick:
		}
		for r.flush(ctx) != nil {
			if !pause(ctx, wait) {
				return
			}
			wait = min(2*wait, r.svc.cfg.retryMax())
		}
		wait = r.svc.cfg.retryMin()
	}
}

// flush writes the pending records in one transaction. On failure they
// stay pending (behind any newer record of the same mark).
func (r *recorder) flush(ctx context.Context) error {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()
	r.mu.Lock()
	batch := r.pending
	r.pending = map[string][]byte{}
	r.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	err := r.svc.syncPlatforms(ctx) // a delivery is recorded once the platform saved it (sync.go)
	if err == nil {
		err = r.svc.deps.Store.PutBlobs(ctx, postsNS, batch)
	}
	if err != nil {
		if ctx.Err() == nil {
			r.svc.log.Error("record deliveries", "records", len(batch), "err", err)
		}
		r.mu.Lock()
		maps.Copy(batch, r.pending)
		r.pending = batch
		r.mu.Unlock()
	}
	return err
}

// delivered reports whether an ended table's last post (the intro's final
// edit) was delivered; an ended table that has posts left is resumed until
// they are.
func (s *Service) delivered(ctx context.Context, id string) bool {
	if _, ok, err := s.deps.Store.GetBlob(ctx, postsNS, id+"/intro#end"); err == nil && ok {
		return true
	}
	_, ok, err := s.deps.Store.GetBlob(ctx, legacyPostsNS(id), "end")
	return err == nil && ok
}
