package bot_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// The benchmarks of live tables, restarts and memory run only with -bench;
// their sizes come from the environment so that they can be scaled down:
//
//	ROUNDTABLE_BENCH_TABLES   table counts, comma-separated (each benchmark has its default)
//	ROUNDTABLE_BENCH_ROUNDS   rounds of history or of play, comma-separated
//	ROUNDTABLE_BENCH_PHASE    phase duration of live tables (default 5s)
//	ROUNDTABLE_BENCH_WORKERS  resume workers (default: bot's, four per CPU)
//	ROUNDTABLE_BENCH_POSTS    "memory" keeps the records of posts in memory instead of
//	                          the file: what a posting path off the fsync path could reach

// benchSizes reads a comma-separated list of numbers from the environment.
func benchSizes(b *testing.B, name string, def ...int) []int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			b.Fatalf("%s=%q: want positive numbers separated by commas", name, v)
		}
		out = append(out, n)
	}
	return out
}

func benchPhase(b *testing.B) time.Duration {
	v := os.Getenv("ROUNDTABLE_BENCH_PHASE")
	if v == "" {
		return 5 * time.Second
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		b.Fatalf("ROUNDTABLE_BENCH_PHASE=%q: want a duration such as 5s", v)
	}
	return d
}

// benchService is the service of the benchmarks: tables of people and the
// Facilitator (a rule-based agent that needs no model), sealed plurality
// rounds of the given phase length, run to their last round.
func benchService(p bot.Platform, db bot.Store, clock bot.Clock, phase time.Duration) *bot.Service {
	cfg := bot.Config{
		Defaults: roundtable.Config{Rule: vote.Plurality, Rounds: 2, Mode: roundtable.Sealed, EarlyStop: roundtable.StopNever,
			Durations: roundtable.Durations{Message: phase, Proposal: phase, Vote: phase}},
		Agents:        map[string]roundtable.Participant{"Facilitator": facilitatorSeat},
		DefaultAgents: []string{"Facilitator"},
	}
	if v := os.Getenv("ROUNDTABLE_BENCH_WORKERS"); v != "" {
		cfg.ResumeWorkers, _ = strconv.Atoi(v)
	}
	deps := bot.Deps{Store: db, Clock: clock,
		Agent: func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) {
			return facilitator.Agent{}, nil
		},
		Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			return roundtable.TextTask{Topic: spec.Topic}, nil
		}}
	return bot.New(cfg, deps, p)
}

var facilitatorSeat = roundtable.Participant{ID: "agent:facilitator", Name: "Facilitator", Kind: roundtable.Bot, Agent: "facilitator"}

func benchDB(b *testing.B, dir string, opt store.Options) *store.DB {
	db, err := store.Open(filepath.Join(dir, "bench.db"), opt)
	if err != nil {
		b.Fatal(err)
	}
	return db
}

// percentile returns the p-th percentile (0 < p ≤ 100) of d, in ms.
func percentile(d []time.Duration, p float64) float64 {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	i = max(0, min(i, len(s)-1))
	return float64(s[i]) / float64(time.Millisecond)
}

// probeStore measures, on the store's side, how late phases close: from
// the deadline to the moment the PhaseClosed event is durable.
type probeStore struct {
	*store.DB
	mu       sync.Mutex
	deadline map[string]time.Time // table → deadline of its open phase
	closedAt map[string]time.Time // table → deadline of a phase closed by it, until the next phase is shown
	tableOf  map[string]string    // thread → table
	closes   []time.Duration
	posts    map[string][]byte // "posts/<table>\x00key" → ID, with ROUNDTABLE_BENCH_POSTS=memory
}

func newProbeStore(db *store.DB) *probeStore {
	s := &probeStore{DB: db, deadline: map[string]time.Time{}, closedAt: map[string]time.Time{}, tableOf: map[string]string{}}
	if os.Getenv("ROUNDTABLE_BENCH_POSTS") == "memory" {
		s.posts = map[string][]byte{}
	}
	return s
}

func (s *probeStore) PutBlob(ctx context.Context, ns, key string, v []byte) error {
	if s.posts == nil || !strings.HasPrefix(ns, "posts/") {
		return s.DB.PutBlob(ctx, ns, key, v)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.posts[ns+"\x00"+key] = v
	return nil
}

func (s *probeStore) GetBlob(ctx context.Context, ns, key string) ([]byte, bool, error) {
	if s.posts == nil || !strings.HasPrefix(ns, "posts/") {
		return s.DB.GetBlob(ctx, ns, key)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.posts[ns+"\x00"+key]
	return v, ok, nil
}

func (s *probeStore) Append(ctx context.Context, table string, events []roundtable.Event) error {
	if err := s.DB.Append(ctx, table, events); err != nil {
		return err
	}
	s.observe(table, events)
	return nil
}

func (s *probeStore) AppendSnapshot(ctx context.Context, table string, events []roundtable.Event, snap *roundtable.State) error {
	if err := s.DB.AppendSnapshot(ctx, table, events, snap); err != nil {
		return err
	}
	s.observe(table, events)
	return nil
}

// observe notes the deadlines of opened phases and how late closed ones
// were durable.
func (s *probeStore) observe(table string, events []roundtable.Event) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range events {
		switch d := e.Data.(type) {
		case roundtable.PhaseClosed:
			if dl, ok := s.deadline[table]; ok && d.Reason == roundtable.ClosedDeadline {
				s.closes = append(s.closes, now.Sub(dl))
				s.closedAt[table] = dl
			}
		case roundtable.PhaseOpened:
			s.deadline[table] = d.Deadline
		}
	}
}

func (s *probeStore) Bind(ctx context.Context, key, table string) error {
	if _, thread, ok := strings.Cut(key, ":"); ok && !strings.HasPrefix(key, "latest:") { // "<platform>:<thread>"
		s.mu.Lock()
		s.tableOf[thread] = table
		s.mu.Unlock()
	}
	return s.DB.Bind(ctx, key, table)
}

// shown returns how long after the deadline of the phase closed last in
// thread its next phase was shown, if that phase closed at its deadline.
func (s *probeStore) shown(thread string, at time.Time) (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	table := s.tableOf[thread]
	dl, ok := s.closedAt[table]
	delete(s.closedAt, table)
	return at.Sub(dl), ok
}
