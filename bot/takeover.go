package bot

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// sweepEvery is how often a service in a cluster lets go of the ended
// tables it owns whose last posts are out.
const sweepEvery = 30 * time.Second

// follow acts on ownership changes and on the platforms' moves until ctx
// ends: it takes orphaned tables over, lets lost ones go, and campaigns
// again for every open table on a rescan or when a platform carries
// other places. A table is campaigned for at once, when the change comes
// (one transaction), so that a dead process's tables all have a new
// owner within the lease's time to live; the tables won are then opened
// by a bounded pool, as at Run, or by the first event for one.
func (s *Service) follow(ctx context.Context) {
	if s.deps.Owners == nil {
		return
	}
	r := &resumer{s: s, ctx: ctx, sem: make(chan struct{}, s.workers()), campaigns: make(chan struct{}, campaigners), retries: map[string]int{}}
	defer r.wg.Wait()
	moved := s.moves()
	sweep := time.NewTicker(sweepEvery)
	defer sweep.Stop()
	changes := s.deps.Owners.Changes()
	for {
		select {
		case <-ctx.Done():
			return
		case ch, ok := <-changes:
			if !ok {
				return
			}
			t0 := time.Now()
			s.change(ctx, ch, r)
			if d := time.Since(t0); d > time.Second {
				s.log.Warn("cluster: slow change", "kind", ch.Kind, "table", ch.Table, "took", d)
			}
		case <-moved:
			s.letGoUncarried(ctx)
			s.rescan(ctx, r)
		case <-sweep.C:
			s.sweepEnded(ctx)
		}
	}
}

// change acts on one ownership change.
func (s *Service) change(ctx context.Context, ch OwnerChange, r *resumer) {
	switch ch.Kind {
	case Orphaned:
		s.log.Debug("cluster: table orphaned", "table", ch.Table)
		r.campaign(ch.Table)
	case Lost:
		s.lose(ch.Table)
	case Rescan:
		s.rescan(ctx, r)
	}
}

// moves merges the Moved signals of the partitioned platforms.
func (s *Service) moves() <-chan struct{} {
	out := make(chan struct{}, 1)
	for _, p := range s.platforms {
		pp, ok := p.(Partitioned)
		if !ok {
			continue
		}
		go func() {
			for range pp.Moved() {
				select {
				case out <- struct{}{}:
				default:
				}
			}
		}()
	}
	return out
}

// rescan campaigns for every open table the service does not hold, in
// r's pool, so that the changes that come meanwhile (a table lost, another
// orphaned) are acted on at once.
func (s *Service) rescan(ctx context.Context, r *resumer) {
	s.mu.Lock()
	clear(s.foreign)
	s.mu.Unlock()
	list, err := s.deps.Store.Tables(ctx)
	if err != nil && !roundtable.IsDamage(err) {
		s.log.Error("cluster: list tables to take over", "err", err)
		return
	}
	for _, sum := range list {
		if ctx.Err() != nil {
			return
		}
		if sum.Status == roundtable.StatusEnded {
			continue // one with posts left is found by the sweep of its owner, or orphaned when it dies
		}
		r.campaign(sum.ID) // in the pool: one after another, a loaded store kept the changes after it waiting for a minute
	}
}

// takeOver campaigns for table id and, once won, has r resume it as Run
// does: its channel read again, its deadline re-armed from the log, what
// the log implies and the records do not show delivered posted once.
func (s *Service) takeOver(ctx context.Context, id string, r *resumer) {
	s.mu.Lock()
	_, held := s.tables[id]
	_, foreign := s.foreign[id]
	s.mu.Unlock()
	if held || foreign || s.isDamaged(id) || s.delivered(ctx, id) {
		s.log.Debug("cluster: not campaigning for table", "table", id, "held", held, "foreign", foreign)
		return
	}
	if err := s.own(ctx, id); err != nil {
		if !errors.Is(err, errElsewhere) && ctx.Err() == nil {
			s.log.Warn("cluster: campaign for table", "table", id, "err", err)
			r.failed(id, err) // campaigned for again: no other change may come for it
		}
		return
	}
	sl, mine := s.claim(id)
	if !mine {
		return // an event for it got there first
	}
	sl.taken.Store(false) // for the pool, or the first event for it
	s.log.Info("cluster: taking table over", "table", id)
	r.resume(id, sl)
}

// campaigners is how many campaigns for orphaned tables run at once: each
// is a few round trips to the store, so that a dead process's hundreds of
// tables are not campaigned for one after another.
const campaigners = 32

// resumer campaigns for orphaned tables, a bounded number at once, and
// opens the tables won, a bounded number at once; the calls to campaign
// and resume never wait.
type resumer struct {
	s         *Service
	ctx       context.Context
	sem       chan struct{}
	campaigns chan struct{}
	wg        sync.WaitGroup

	mu      sync.Mutex
	retries map[string]int // opens of a won table that failed, by table
}

// campaign takes table id over, if no other process does first.
func (r *resumer) campaign(id string) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		select {
		case r.campaigns <- struct{}{}:
			defer func() { <-r.campaigns }()
		case <-r.ctx.Done():
			return
		}
		r.s.takeOver(r.ctx, id, r)
	}()
}

// resume opens and begins table id in its claimed slot, unless an event
// for it has done so first.
func (r *resumer) resume(id string, sl *slot) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		select {
		case r.sem <- struct{}{}:
			defer func() { <-r.sem }()
		case <-r.ctx.Done():
			if sl.take() {
				r.s.settle(id, sl, nil, r.ctx.Err())
			}
			return
		}
		if !sl.take() {
			return
		}
		r.s.resumeOne(r.ctx, id, sl)
		if sl.err != nil {
			r.failed(id, sl.err)
			return
		}
		r.mu.Lock()
		delete(r.retries, id)
		r.mu.Unlock()
	}()
}

// resumeRetries bounds how often a table won that failed to open is
// opened again, resumeBackoff apart and doubling, before it is left to
// the first request for it (which opens it again) or the next owner.
const (
	resumeRetries = 5
	resumeBackoff = time.Second
)

// failed acts on a table whose campaign failed, or that was won and
// failed to open. One without a log (its start was cut short by the death
// of the process that began it) is let go for good. Any other is
// campaigned for and opened again a few times: the failure may be the
// store's, passing, and nothing else would open it until a request for
// it came.
func (r *resumer) failed(id string, err error) {
	if roundtable.ErrorCode(err) == roundtable.NotFound {
		// Let go, and not campaigned for again here: each process tries
		// it once, then none (a rescan lists only tables with a log).
		r.s.log.Info("cluster: let go of a table that has no log (its start did not complete)", "table", id)
		r.s.notMine(r.ctx, id)
		return
	}
	r.mu.Lock()
	n := r.retries[id]
	r.retries[id] = n + 1
	r.mu.Unlock()
	if n >= resumeRetries {
		return
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		select {
		case <-time.After(resumeBackoff << n):
			r.campaign(id)
		case <-r.ctx.Done():
		}
	}()
}

// lose stops serving table id, which another process owns now: its
// deadline and agents stop, what its courier has not sent yet is dropped
// (the new owner posts it), and its channel is let go.
func (s *Service) lose(id string) {
	s.mu.Lock()
	sl := s.tables[id]
	delete(s.tables, id)
	s.mu.Unlock()
	if sl == nil {
		return
	}
	s.log.Warn("cluster: lost table to another process", "table", id)
	s.mu.Lock()
	delete(s.owned, id)
	s.mu.Unlock()
	lt := sl.done()
	if lt == nil {
		return // being opened: its writes are refused, and it is dropped then
	}
	lt.stop()
	s.couriers[lt.platform.Name()].dropTable(id)
	if a, ok := lt.platform.(Adopter); ok {
		a.Abandon(lt.channel)
	}
}

// letGoUncarried lets go of the held tables whose space their platform no
// longer carries (a shard another process took).
func (s *Service) letGoUncarried(ctx context.Context) {
	for _, lt := range s.running() {
		var space string
		lt.table.Read(func(st *roundtable.State) { space = st.Config.Labels[labelSpace] })
		if !carries(lt.platform, space) {
			id := lt.table.ID()
			s.lose(id)
			s.release(ctx, id)
		}
	}
}

// sweepEnded lets go of the ended tables this process owns whose last
// posts are out: no one needs to take them over.
func (s *Service) sweepEnded(ctx context.Context) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.owned))
	for id := range s.owned {
		if _, held := s.tables[id]; !held {
			ids = append(ids, id)
		}
	}
	s.mu.Unlock()
	for _, id := range ids {
		if s.delivered(ctx, id) {
			s.release(ctx, id)
			s.mu.Lock()
			delete(s.owned, id)
			s.mu.Unlock()
		}
	}
}

// workers is how many tables are opened at once (Config.ResumeWorkers).
func (s *Service) workers() int {
	if s.cfg.ResumeWorkers > 0 {
		return s.cfg.ResumeWorkers
	}
	return resumeWorkers()
}

// dropTable drops the items of table that are queued and not being sent.
func (c *courier) dropTable(table string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, l := range c.lanes {
		kept := l.items[:0]
		for _, it := range l.items {
			if it.Table != table || it == l.busy {
				kept = append(kept, it)
				continue
			}
			for _, m := range it.marks {
				delete(l.queued, table+"/"+m)
			}
		}
		clear(l.items[len(kept):])
		l.items = kept
	}
}
