package bot

import (
	"context"
	"maps"
	"strings"
	"sync"
	"time"
)

// postsNS is the store namespace of delivery records: "<table>/<mark>" →
// the platform's message ID (empty for an edit).
const postsNS = "posts"

// sentLog is what was delivered for one table: mark → message ID.
type sentLog struct {
	mu  sync.Mutex
	ids map[string]string
}

func newSentLog() *sentLog { return &sentLog{ids: map[string]string{}} }

// loadSentLog reads a table's delivery records, and those an earlier
// version of the bot kept (legacyPostsNS).
func loadSentLog(ctx context.Context, st Store, table string) (*sentLog, error) {
	raw, err := st.Blobs(ctx, postsNS, table+"/")
	if err != nil {
		return nil, err
	}
	legacy, err := st.Blobs(ctx, legacyPostsNS(table), "")
	if err != nil {
		return nil, err
	}
	l := newSentLog()
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
	return l, nil
}

// legacyPostsNS is where the bot kept a table's posted IDs before delivery
// records, one fsynced write per post.
func legacyPostsNS(table string) string { return "posts/" + table }

func (l *sentLog) has(mark string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.ids[mark]
	return ok
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
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
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
	err := r.svc.deps.Store.PutBlobs(ctx, postsNS, batch)
	if err != nil {
		r.svc.log.Error("record deliveries", "records", len(batch), "err", err)
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
