package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Labels the bot writes into a table's config so that, after a restart, it
// knows where the table lives.
const (
	labelPlatform = "platform"
	labelChannel  = "channel" // the table's thread
	labelParent   = "parent"  // where it was started
	labelStarter  = "starter" // participant ID of whoever started it
)

// Service is the chat application: it receives platform events, drives
// live tables and posts what happens. Create it with New and call Run.
type Service struct {
	cfg  Config
	deps Deps
	log  *slog.Logger

	platforms map[string]Platform
	couriers  map[string]*courier // by platform name
	records   *recorder
	audit     *auditor
	shelf     *shelf // ended tables, for reading (reader.go)

	mu      sync.Mutex
	damaged map[string]error    // quarantined tables: why their log does not replay
	tables  map[string]*slot    // see tables.go
	owned   map[string]bool     // tables acquired from Deps.Owners (owners.go)
	foreign map[string]struct{} // tables of others' platforms or places
	runCtx  context.Context
	wg      sync.WaitGroup
	resumed chan struct{} // closed once Run has resumed the open tables
}

// New returns a service over the given platforms. It does no I/O.
func New(cfg Config, deps Deps, platforms ...Platform) *Service {
	if deps.Clock == nil {
		deps.Clock = SystemClock{}
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Service{cfg: cfg, deps: deps, log: deps.Logger, platforms: map[string]Platform{},
		tables: map[string]*slot{}, resumed: make(chan struct{}),
		couriers: map[string]*courier{}, damaged: map[string]error{}, shelf: newShelf(),
		owned: map[string]bool{}, foreign: map[string]struct{}{}}
	s.records = newRecorder(s)
	for _, p := range platforms {
		s.platforms[p.Name()] = p
		s.couriers[p.Name()] = newCourier(s, p)
		if r, ok := p.(TableReader); ok {
			r.ReadTables(s.Tables(p.Name()))
		}
	}
	s.audit = newAuditor(s, deps.Audit)
	return s
}

// Run serves the platforms until ctx is done or one fails for good, and
// meanwhile resumes every open table of the configured platforms in
// parallel (replaying its log, re-arming its deadline, asking agents that
// have not acted). An event for a table not yet resumed waits for it.
func (s *Service) Run(ctx context.Context) error {
	if len(s.platforms) == 0 {
		return errors.New("bot: no platform configured")
	}
	s.mu.Lock()
	s.runCtx = ctx
	s.mu.Unlock()
	recCtx, stopRecords := context.WithCancel(context.WithoutCancel(ctx))
	recDone := make(chan struct{})
	go func() { defer close(recDone); s.records.run(recCtx) }()
	defer func() {
		stopRecords()
		<-recDone
		_ = s.records.flush(context.WithoutCancel(ctx)) // what settled while stopping
	}()
	claimed, err := s.claimOpen(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return nil // stopped while listing the tables: a clean stop, like the platforms'
		}
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	resuming := make(chan struct{})
	go func() {
		defer close(resuming)
		s.resume(gctx, claimed)
	}()
	following := make(chan struct{})
	go func() {
		defer close(following)
		s.follow(gctx)
	}()
	for _, p := range s.platforms {
		g.Go(func() error {
			if err := p.Run(gctx, s.Handle); err != nil && gctx.Err() == nil {
				return fmt.Errorf("%s: %w", p.Name(), err)
			}
			return nil
		})
	}
	err = g.Wait()
	<-resuming
	<-following
	s.shutdown()
	return err
}

// shutdown stops deadlines and waits for agent calls to return.
func (s *Service) shutdown() {
	for _, lt := range s.running() {
		lt.stop()
	}
	s.audit.shutdown()
	s.wg.Wait()
}

// open opens a stored table and builds its live table; nil when it
// belongs to a platform this service does not run. replan is set when
// resuming: what the log implies and was not delivered is posted.
func (s *Service) open(ctx context.Context, id string, replan bool) (*live, error) {
	if s.isDamaged(id) {
		return nil, quarantinedError(id)
	}
	// The log is decoded once: the task is built from the replayed config.
	obs := s.outbox(id)
	var p Platform
	t, err := openSafely(ctx, obs.store(), s.deps.Clock, id, func(c roundtable.Config) (roundtable.Task, error) {
		var ok bool
		if p, ok = s.platforms[c.Labels[labelPlatform]]; !ok || !carries(p, c.Labels[labelSpace]) {
			return nil, errOtherPlatform
		}
		task, err := s.deps.Task(c.Task, len(c.Participants))
		if err != nil {
			return nil, &configError{fmt.Errorf("task of table %s: %w", id, err)}
		}
		sent, err := s.loadSentLog(ctx, id, obs.window())
		if err != nil {
			return nil, &configError{fmt.Errorf("deliveries of table %s: %w", id, err)}
		}
		obs.bind(s.couriers[p.Name()], c.Labels[labelChannel], s.briefer(task), sent)
		return task, nil
	})
	switch {
	case errors.Is(err, errOtherPlatform):
		return nil, nil
	case roundtable.DamagedTables(err)[id] != nil:
		return nil, s.quarantineLog(ctx, id, err)
	case err != nil && obs.readLog() && !isConfigError(err):
		return nil, s.quarantineLog(ctx, id, err)
	case err != nil:
		return nil, err
	}
	// An ended table opened again for status or export has nothing to
	// post: its posts were handed to the courier before it left memory
	// (or, at a restart, by resume); planning them again would post twice.
	var ended bool
	t.Read(func(st *roundtable.State) { ended = st.Status == roundtable.StatusEnded })
	if replan || !ended {
		if err := s.adoptChannel(ctx, p, obs.plan.channel); err != nil {
			return nil, err
		}
		if err := obs.open(ctx); err != nil {
			return nil, err
		}
	}
	return s.build(t, p, obs.plan.channel)
}

// outbox returns the store a table's moderator writes through, which
// hands its events to the platform's courier once bound (outbox.go).
func (s *Service) outbox(id string) *observed {
	return &observed{Store: s.deps.Store, plan: &planner{table: id},
		err: func(err error) { s.log.Error("outbox", "table", id, "err", err) }}
}

// build makes the live table around t and its agents.
func (s *Service) build(t *roundtable.Table, p Platform, channel string) (*live, error) {
	lt := &live{svc: s, table: t, platform: p, channel: channel, agents: map[string]roundtable.Agent{}}
	var seats []roundtable.Participant
	t.Read(func(st *roundtable.State) { seats = append(seats, st.Participants...) })
	for _, seat := range seats {
		if err := lt.seatAgent(seat); err != nil {
			return nil, err
		}
	}
	return lt, nil
}

// context returns the context agents and deadlines run under.
func (s *Service) context() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.runCtx == nil {
		return context.Background()
	}
	return s.runCtx
}

// table finds the live table bound to a channel.
func (s *Service) tableIn(ctx context.Context, platform, channel string) (*live, error) {
	id, ok, err := s.deps.Store.Lookup(ctx, bindKey(platform, channel))
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, roundtable.Errorf(roundtable.NotFound, "there is no table in this channel; start one with /roundtable start")
	}
	return s.tableByID(ctx, platform, id)
}

// tableByID finds a table that runs on platform.
func (s *Service) tableByID(ctx context.Context, platform, id string) (*live, error) {
	lt, err := s.load(ctx, id)
	if err != nil {
		if roundtable.ErrorCode(err) == roundtable.NotFound {
			return nil, roundtable.Errorf(roundtable.NotFound, "table %s does not exist", id)
		}
		return nil, err
	}
	if lt == nil || lt.platform.Name() != platform {
		return nil, roundtable.Errorf(roundtable.Forbidden, "table %s runs on another platform; act on it there", id)
	}
	return lt, nil
}

func bindKey(platform, channel string) string { return platform + ":" + channel }

// latestKey binds a channel to the newest table started in it.
func latestKey(platform, channel string) string { return "latest:" + platform + ":" + channel }

// ParticipantID is how a platform's user is seated at its tables (the
// participant they are to the visibility rule, roundtable.Viewer).
func ParticipantID(platform, user string) string { return platform + ":" + user }
