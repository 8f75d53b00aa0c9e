package bot

import (
	"context"
	"fmt"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
)

// Auditing is what the service needs to audit live tables (a table whose
// config has an Audit). The zero value audits nothing: audited tables
// then run unaudited, and say so in the log.
type Auditing struct {
	// Instruments builds the instruments of an audit (sentiment, stance).
	Instruments func(spec roundtable.AuditSpec) ([]analysis.Instrument, error)
	// Store keeps the annotations, beside the tables' logs.
	Store roundtable.AnnotationStore
	// Workers is how many messages are measured at once (default 2);
	// Queue how many may wait (default 1024). A message that finds the
	// queue full is stored as missing, never waited for.
	Workers, Queue int
}

// auditor annotates revealed messages of audited tables in the
// background. Nothing in it waits for a model while a table's lock is
// held: reveal only queues work.
type auditor struct {
	svc  *Service
	cfg  Auditing
	jobs chan auditJob
	quit chan struct{}
	once sync.Once
	stop sync.Once

	mu     sync.Mutex
	tables map[string]*tableAudit
}

// tableAudit is what the auditor knows of one table.
type tableAudit struct {
	lt          *live
	instruments []analysis.Instrument
	queued      map[uint64]bool
	pending     map[int]int  // jobs not done, per round
	revealed    map[int]bool // rounds whose messages are all revealed
	summarized  map[int]bool
	from        int // reveal is done with rounds up to this one; touched under lt.mu only
}

type auditJob struct {
	ta    *tableAudit
	table string
	round int
	seq   uint64
	text  string
	in    analysis.Instrument
}

func newAuditor(s *Service, cfg Auditing) *auditor {
	if cfg.Workers <= 0 {
		cfg.Workers = 2
	}
	if cfg.Queue <= 0 {
		cfg.Queue = 1024
	}
	return &auditor{svc: s, cfg: cfg, jobs: make(chan auditJob, cfg.Queue), quit: make(chan struct{}), tables: map[string]*tableAudit{}}
}

// reveal queues every revealed message of lt that was not queued before,
// and the round summaries that are due. The caller holds lt.mu; reveal
// never blocks on a model.
func (a *auditor) reveal(lt *live) {
	var spec *roundtable.AuditSpec
	lt.table.Read(func(s *roundtable.State) { spec = s.Config.Audit })
	if spec == nil {
		return
	}
	ta := a.table(lt, *spec)
	if ta == nil {
		return
	}
	a.once.Do(a.start)
	ctx := a.svc.context()
	rounds, err := ta.pendingRounds(ctx, lt)
	if err != nil {
		a.svc.log.Error("audit: read the table's rounds; its earlier messages are not queued", "table", lt.table.ID(), "err", err)
	}
	for _, r := range rounds {
		for _, m := range r.messages {
			a.queue(ctx, ta, r.round, m)
		}
		if r.revealed {
			a.roundRevealed(ctx, ta, r.round)
			ta.from = r.round // every later call starts after it
		}
	}
}

// shownRound is what reveal needs of one round.
type shownRound struct {
	round    int
	messages []roundtable.Message // shown (maybe queued before)
	revealed bool                 // all messages shown
}

// pendingRounds reads the rounds reveal has not finished with, without
// copying the table's state unless some of them are archived in the store
// (after a restart); the caller holds lt.mu.
func (ta *tableAudit) pendingRounds(ctx context.Context, lt *live) ([]shownRound, error) {
	var out []shownRound
	var archived bool
	lt.table.Read(func(s *roundtable.State) {
		if archived = s.Archived > ta.from; archived {
			return
		}
		out = ta.shown(s, s.Rounds)
	})
	if !archived {
		return out, nil
	}
	rounds, err := lt.table.Rounds(ctx)
	if err != nil {
		return nil, err
	}
	lt.table.Read(func(s *roundtable.State) { out = ta.shown(s, rounds) })
	return out, nil
}

// shown is what reveal needs of the rounds after ta.from.
func (ta *tableAudit) shown(s *roundtable.State, rounds []roundtable.RoundRecord) []shownRound {
	var out []shownRound
	for _, r := range rounds {
		if r.Round <= ta.from {
			continue
		}
		sr := shownRound{round: r.Round, revealed: roundRevealed(s, r.Round)}
		if sr.revealed || s.Config.Mode == roundtable.Live {
			sr.messages = append(sr.messages, r.Messages...)
		}
		out = append(out, sr)
	}
	return out
}

// roundRevealed reports whether every message of round is shown: its
// message phase has closed.
func roundRevealed(s *roundtable.State, round int) bool {
	return round < s.Round || s.Phase != roundtable.PhaseMessage || s.Status == roundtable.StatusEnded
}

// table returns the auditor's record of lt, building its instruments the
// first time; nil when they cannot be built (logged once).
func (a *auditor) table(lt *live, spec roundtable.AuditSpec) *tableAudit {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := lt.table.ID()
	if ta, ok := a.tables[id]; ok {
		return ta
	}
	ta := &tableAudit{lt: lt, queued: map[uint64]bool{}, pending: map[int]int{}, revealed: map[int]bool{}, summarized: map[int]bool{}}
	a.tables[id] = ta
	if a.cfg.Instruments == nil || a.cfg.Store == nil {
		a.svc.log.Warn("table asks for an audit but none is configured; it runs unaudited", "table", id)
		return ta
	}
	ins, err := a.cfg.Instruments(spec)
	if err != nil {
		a.svc.log.Error("audit instruments; the table runs unaudited", "table", id, "err", err)
		return ta
	}
	ta.instruments = ins
	return ta
}

// queue puts one message's measurements on the queue, once.
func (a *auditor) queue(ctx context.Context, ta *tableAudit, round int, m roundtable.Message) {
	a.mu.Lock()
	if ta.queued[m.Seq] || len(ta.instruments) == 0 {
		a.mu.Unlock()
		return
	}
	ta.queued[m.Seq] = true
	ta.pending[round] += len(ta.instruments)
	a.mu.Unlock()
	for _, in := range ta.instruments {
		job := auditJob{ta: ta, table: ta.lt.table.ID(), round: round, seq: m.Seq, text: m.Text, in: in}
		select {
		case a.jobs <- job:
		default:
			a.missing(ctx, job, "the audit queue was full; run `roundtable annotate` on the stored table to measure it")
			a.done(ctx, job)
		}
	}
}

// start runs the workers; they stop when the service's context is done
// or the service shuts down.
func (a *auditor) start() {
	ctx := a.svc.context()
	for range a.cfg.Workers {
		a.svc.wg.Add(1)
		go func() {
			defer a.svc.wg.Done()
			a.work(ctx)
		}()
	}
}

func (a *auditor) work(ctx context.Context) {
	cache := analysis.Cache{Store: a.cfg.Store, Clock: a.svc.deps.Clock}
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.quit:
			return
		case job := <-a.jobs:
			if _, err := cache.Annotate(ctx, job.table, job.seq, job.in, analysis.Item{Text: job.text}); err != nil {
				a.svc.log.Warn("audit annotation not stored", "table", job.table, "seq", job.seq, "instrument", job.in.Name(), "err", err)
			}
			a.done(ctx, job)
		}
	}
}

// shutdown stops the workers; queued work is left (the stored table can
// be annotated later).
func (a *auditor) shutdown() { a.stop.Do(func() { close(a.quit) }) }

// missing stores a job's annotation as missing with reason.
func (a *auditor) missing(ctx context.Context, job auditJob, reason string) {
	ann := roundtable.Annotation{Table: job.table, Seq: job.seq, Instrument: job.in.Name(), Model: job.in.Model(),
		Missing: reason, Time: a.svc.deps.Clock.Now()}
	if err := a.cfg.Store.PutAnnotation(ctx, ann); err != nil {
		a.svc.log.Warn("audit annotation not stored", "table", job.table, "seq", job.seq, "err", err)
	}
}

// done counts a job off its round and sends the round's summary when it
// was the last one.
func (a *auditor) done(ctx context.Context, job auditJob) {
	a.mu.Lock()
	job.ta.pending[job.round]--
	due := a.due(job.ta, job.round)
	a.mu.Unlock()
	if due {
		a.summarize(ctx, job.ta, job.round)
	}
}

// roundRevealed marks round's messages all revealed, and sends its
// summary if nothing is left to measure.
func (a *auditor) roundRevealed(ctx context.Context, ta *tableAudit, round int) {
	a.mu.Lock()
	ta.revealed[round] = true
	due := a.due(ta, round)
	a.mu.Unlock()
	if due {
		a.svc.wg.Add(1)
		go func() { // off the table's lock: summaries read the store
			defer a.svc.wg.Done()
			a.summarize(ctx, ta, round)
		}()
	}
}

// due reports, once, that round's summary may go out; the caller holds mu.
func (a *auditor) due(ta *tableAudit, round int) bool {
	if !ta.revealed[round] || ta.pending[round] > 0 || ta.summarized[round] || len(ta.instruments) == 0 {
		return false
	}
	ta.summarized[round] = true
	return true
}

func auditNS(table string) string { return "audit/" + table }

func summaryKey(round int) string { return fmt.Sprintf("summary/r%d", round) }
