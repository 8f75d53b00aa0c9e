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

	mu      sync.Mutex
	damaged map[string]error // quarantined tables: why their log does not replay
	tables  map[string]*live
	runCtx  context.Context
	wg      sync.WaitGroup
}

// New returns a service over the given platforms. It does no I/O.
func New(cfg Config, deps Deps, platforms ...Platform) *Service {
	if deps.Clock == nil {
		deps.Clock = SystemClock{}
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Service{cfg: cfg, deps: deps, log: deps.Logger, platforms: map[string]Platform{}, tables: map[string]*live{},
		couriers: map[string]*courier{}, damaged: map[string]error{}}
	s.records = newRecorder(s)
	for _, p := range platforms {
		s.platforms[p.Name()] = p
		s.couriers[p.Name()] = newCourier(s, p)
	}
	s.audit = newAuditor(s, deps.Audit)
	return s
}

// Run resumes every open table of the configured platforms (replaying its
// log, re-arming its deadline, asking agents that have not acted), then
// serves the platforms until ctx is done or one fails for good.
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
	if err := s.resume(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while resuming: a clean stop, like the platforms'
		}
		return err
	}
	g, gctx := errgroup.WithContext(ctx)
	for _, p := range s.platforms {
		g.Go(func() error {
			if err := p.Run(gctx, s.Handle); err != nil && gctx.Err() == nil {
				return fmt.Errorf("%s: %w", p.Name(), err)
			}
			return nil
		})
	}
	err := g.Wait()
	s.shutdown()
	return err
}

// shutdown stops deadlines and waits for agent calls to return.
func (s *Service) shutdown() {
	s.mu.Lock()
	tables := make([]*live, 0, len(s.tables))
	for _, lt := range s.tables {
		tables = append(tables, lt)
	}
	s.mu.Unlock()
	for _, lt := range tables {
		lt.stop()
	}
	s.audit.shutdown()
	s.wg.Wait()
}

// resume picks up every table that is not over.
func (s *Service) resume(ctx context.Context) error {
	list, err := s.deps.Store.Tables(ctx)
	if err != nil {
		return fmt.Errorf("list tables: %w", err)
	}
	for _, sum := range list {
		if sum.Status == roundtable.StatusEnded && s.delivered(ctx, sum.ID) {
			continue
		}
		lt, err := s.load(ctx, sum.ID)
		if err != nil {
			s.log.Error("cannot resume table", "table", sum.ID, "err", err)
			continue
		}
		if lt == nil {
			continue // another platform's table
		}
		s.log.Info("resuming table", "table", sum.ID, "round", sum.Round)
		lt.begin(ctx)
	}
	return nil
}

// load opens a stored table and registers it; nil when it belongs to a
// platform this service does not run.
func (s *Service) load(ctx context.Context, id string) (*live, error) {
	s.mu.Lock()
	if lt, ok := s.tables[id]; ok {
		s.mu.Unlock()
		return lt, nil
	}
	if err := s.damaged[id]; err != nil {
		s.mu.Unlock()
		return nil, quarantinedError(id)
	}
	s.mu.Unlock()
	// The log is decoded once: the task is built from the replayed config.
	obs := s.outbox(id)
	var p Platform
	t, err := openSafely(ctx, obs, s.deps.Clock, id, func(c roundtable.Config) (roundtable.Task, error) {
		var ok bool
		if p, ok = s.platforms[c.Labels[labelPlatform]]; !ok {
			return nil, errOtherPlatform
		}
		task, err := s.deps.Task(c.Task, len(c.Participants))
		if err != nil {
			return nil, &configError{fmt.Errorf("task of table %s: %w", id, err)}
		}
		sent, err := s.loadSentLog(ctx, id)
		if err != nil {
			return nil, &configError{fmt.Errorf("deliveries of table %s: %w", id, err)}
		}
		obs.bind(s.couriers[p.Name()], c.Labels[labelChannel], task, sent)
		return task, nil
	})
	switch {
	case errors.Is(err, errOtherPlatform):
		return nil, nil
	case err != nil && obs.readLog() && !isConfigError(err):
		return nil, s.quarantineLog(ctx, id, err)
	case err != nil:
		return nil, err
	}
	if err := obs.open(ctx); err != nil {
		return nil, err
	}
	return s.register(t, p, obs.plan.channel)
}

// outbox returns the store a table's moderator writes through, which
// hands its events to the platform's courier once bound (outbox.go).
func (s *Service) outbox(id string) *observed {
	return &observed{Store: s.deps.Store, plan: &planner{table: id},
		err: func(err error) { s.log.Error("outbox", "table", id, "err", err) }}
}

// register builds the live table around t and its agents.
func (s *Service) register(t *roundtable.Table, p Platform, channel string) (*live, error) {
	lt := &live{svc: s, table: t, platform: p, channel: channel, agents: map[string]roundtable.Agent{}}
	var seats []roundtable.Participant
	t.Read(func(st *roundtable.State) { seats = append(seats, st.Participants...) })
	for _, seat := range seats {
		if err := lt.seatAgent(seat); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if existing, ok := s.tables[t.ID()]; ok {
		return existing, nil
	}
	s.tables[t.ID()] = lt
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

// participantID is how a platform user is seated.
func participantID(platform, user string) string { return platform + ":" + user }
