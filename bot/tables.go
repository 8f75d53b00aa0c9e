package bot

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// The tables map holds one slot per table the service drives. A slot is
// claimed before its table is opened, so that whoever asks for a table
// while it is being opened (an event that arrives while the service
// resumes) waits for that table only, and it is filled once the table is
// ready: opened and, when resumed, begun. Ended tables leave the map once
// their last posts are out, and are opened again on demand (status,
// export), without being kept.

// slot is a table that is ready, or being opened.
type slot struct {
	ready chan struct{} // closed once lt and err are set
	lt    *live
	err   error
	// taken is set by whoever opens the table. A table claimed at Run
	// is opened by a resume worker or, if an event for it comes first,
	// by that event's handler, so the event does not wait for the tables
	// queued before it.
	taken atomic.Bool
}

// take reports whether the caller is the one to open the slot's table.
func (sl *slot) take() bool { return sl.taken.CompareAndSwap(false, true) }

// wait returns the slot's table once it is ready.
func (sl *slot) wait(ctx context.Context) (*live, error) {
	select {
	case <-sl.ready:
		return sl.lt, sl.err
	case <-ctx.Done():
		return nil, roundtable.Errorf(roundtable.Conflict, "the table is still being resumed; try again in a moment")
	}
}

// done returns the slot's table if it is ready, or nil.
func (sl *slot) done() *live {
	select {
	case <-sl.ready:
		return sl.lt
	default:
		return nil
	}
}

// claim returns id's slot, and whether the caller made it and so must
// fill it with settle.
func (s *Service) claim(id string) (*slot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sl, ok := s.tables[id]; ok {
		return sl, false
	}
	sl := &slot{ready: make(chan struct{})}
	sl.taken.Store(true)
	s.tables[id] = sl
	s.shelf.drop(id) // it is live again: what it does is read from it
	return sl, true
}

// settle fills a claimed slot and wakes its waiters. A table that failed
// to open, belongs to another platform or has ended leaves the map: the
// next request opens it again.
func (s *Service) settle(id string, sl *slot, lt *live, err error) {
	sl.lt, sl.err = lt, err
	close(sl.ready)
	if err != nil || lt == nil || lt.ended() {
		s.drop(id, sl)
	}
	if err == nil && lt == nil {
		s.notMine(s.context(), id)
	}
}

// drop removes id's slot if it is still sl.
func (s *Service) drop(id string, sl *slot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tables[id] == sl {
		delete(s.tables, id)
	}
}

// forget lets an ended table leave memory, the service's and the
// platform's; its waiters still get it.
func (s *Service) forget(lt *live) {
	id := lt.table.ID()
	s.mu.Lock()
	if sl, ok := s.tables[id]; ok && sl.lt == lt {
		delete(s.tables, id)
	}
	s.mu.Unlock()
	if f, ok := lt.platform.(Forgetter); ok {
		f.Forget(lt.channel)
	}
}

// load returns the live table id, opening it if no slot holds it; nil
// when it belongs to a platform this service does not run.
func (s *Service) load(ctx context.Context, id string) (*live, error) {
	sl, mine := s.claim(id)
	if !mine {
		if sl.take() { // being resumed, but no worker has reached it yet
			s.resumeOne(s.context(), id, sl)
		}
		return sl.wait(ctx)
	}
	if err := s.own(ctx, id); err != nil {
		s.settle(id, sl, nil, err)
		return nil, err
	}
	if s.deps.Owners != nil { // another process served it until now
		s.log.Info("cluster: taking table over", "table", id, "on", "request")
	}
	lt, err := s.open(ctx, id, false)
	if err == nil && lt != nil && lt.running() {
		lt.begin(s.context()) // its resume failed: it resumes now
	}
	s.settle(id, sl, lt, err)
	return lt, err
}

// adopt puts a table the service has just created in the map; if the
// table is there already (a redelivered start), it returns that one.
func (s *Service) adopt(ctx context.Context, lt *live) (*live, error) {
	sl, mine := s.claim(lt.table.ID())
	if !mine {
		return sl.wait(ctx)
	}
	s.settle(lt.table.ID(), sl, lt, nil)
	return lt, nil
}

// Live returns how many tables the service holds in memory, including
// those being resumed.
func (s *Service) Live() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.tables)
}

// Resumed is closed once every open table found at Run has been resumed
// (or failed to, which is logged). Events are served before that: an
// event for a table that is not resumed yet waits for that table.
func (s *Service) Resumed() <-chan struct{} { return s.resumed }

// resumeWorkers is how many tables are opened at once by default: opening
// is CPU-bound decoding plus reads, and a table whose deadline passed
// while the service was down waits for a batched write.
func resumeWorkers() int { return 4 * runtime.GOMAXPROCS(0) }

// claimOpen lists every table that is not over (or whose last posts are
// not out) and claims its slot, so that events arriving before it is
// resumed wait for it.
func (s *Service) claimOpen(ctx context.Context) (map[string]*slot, error) {
	list, err := s.deps.Store.Tables(ctx)
	if err != nil && !s.quarantineDamaged(ctx, err) {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	out := map[string]*slot{}
	var mu sync.Mutex
	sums := make(chan roundtable.Summary)
	var wg sync.WaitGroup
	// Each table costs a round trip or two to the store (its delivery
	// record, its campaign): a pool keeps a start over thousands of ended
	// tables from waiting on them one after another.
	for range min(claimWorkers, len(list)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for sum := range sums {
				if sl := s.claimOne(ctx, sum); sl != nil {
					mu.Lock()
					out[sum.ID] = sl
					mu.Unlock()
				}
			}
		}()
	}
	for _, sum := range list {
		sums <- sum
	}
	close(sums)
	wg.Wait()
	return out, nil
}

// claimWorkers is how many tables claimOpen looks at once.
const claimWorkers = 16

// claimOne claims table sum's slot if it is open (or its last posts are
// not out) and this process may serve it; nil otherwise.
func (s *Service) claimOne(ctx context.Context, sum roundtable.Summary) *slot {
	if s.isDamaged(sum.ID) {
		return nil
	}
	if sum.Status == roundtable.StatusEnded && s.delivered(ctx, sum.ID) {
		return nil // an ended table is opened while posts of its are left
	}
	if err := s.own(ctx, sum.ID); err != nil {
		return nil // another process serves it
	}
	sl, mine := s.claim(sum.ID)
	if !mine {
		return nil
	}
	sl.taken.Store(false) // for a resume worker, or the first event
	return sl
}

// resume opens and begins the claimed tables with a bounded pool of
// workers, then closes s.resumed.
func (s *Service) resume(ctx context.Context, claimed map[string]*slot) {
	defer close(s.resumed)
	start := time.Now()
	n := s.cfg.ResumeWorkers
	if n <= 0 {
		n = resumeWorkers()
	}
	ids := make(chan string)
	var wg sync.WaitGroup
	for range min(n, len(claimed)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range ids {
				if sl := claimed[id]; sl.take() {
					s.resumeOne(ctx, id, sl)
				}
			}
		}()
	}
	for id := range claimed {
		ids <- id
	}
	close(ids)
	wg.Wait()
	for _, sl := range claimed {
		<-sl.ready // some were opened by the first event for them
	}
	if len(claimed) > 0 {
		s.log.Info("tables resumed", "tables", len(claimed), "took", time.Since(start))
	}
}

// resumeOne opens a claimed table, begins it and fills its slot.
func (s *Service) resumeOne(ctx context.Context, id string, sl *slot) {
	lt, err := s.open(ctx, id, true)
	if err != nil {
		if roundtable.ErrorCode(err) != roundtable.NotFound { // a start cut short: see resumer.failed
			s.log.Error("cannot resume table", "table", id, "err", err)
		}
		s.settle(id, sl, nil, err)
		return
	}
	if lt != nil {
		s.log.Debug("resuming table", "table", id)
		lt.begin(ctx)
	}
	s.settle(id, sl, lt, nil)
}

// running returns the tables that are ready, for shutdown.
func (s *Service) running() []*live {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*live, 0, len(s.tables))
	for _, sl := range s.tables {
		select {
		case <-sl.ready:
			if sl.lt != nil {
				out = append(out, sl.lt)
			}
		default:
		}
	}
	return out
}

// status returns the table's status.
func (lt *live) status() roundtable.Status {
	var st roundtable.Status
	lt.table.Read(func(s *roundtable.State) { st = s.Status })
	return st
}

// position returns the table's open phase.
func (lt *live) position() roundtable.Position {
	var pos roundtable.Position
	lt.table.Read(func(s *roundtable.State) { pos = s.Position() })
	return pos
}

// running reports whether the table has started and is not over.
func (lt *live) running() bool { return lt.status() == roundtable.StatusRunning }

// ended reports whether the table is over.
func (lt *live) ended() bool { return lt.status() == roundtable.StatusEnded }
