// Package sim runs many headless tables concurrently and aggregates their
// metrics: the experiments of the papers. A run is reproducible from its
// seed, and an interrupted run resumes: tables already in the store are
// reopened and driven on from where their log ends.
package sim

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Table is one simulated table, as a Setup builds it.
type Table struct {
	Task   roundtable.Task
	Config roundtable.Config // Participants filled in
	Agents map[string]roundtable.Agent
}

// Setup builds run number i (0-based) with its own seed. It must be
// deterministic in (i, seed): a resumed run rebuilds the same table.
type Setup func(i int, seed int64) (Table, error)

// Measure computes a finished table's metrics.
type Measure func(task roundtable.Task, s *roundtable.State) Measures

// Measures are one table's metrics: per-round series (index 0 = round 1)
// and scalars.
type Measures struct {
	Series  map[string][]float64 `json:"series,omitempty"`
	Scalars map[string]float64   `json:"scalars,omitempty"`
}

// Spec says what to run.
type Spec struct {
	Name        string // prefix of table IDs, e.g. "exchange-majority-s1"
	Runs        int
	Seed        int64
	Concurrency int           // tables at once; 0 means the number of CPUs
	Timeout     time.Duration // per phase; 0 means none
	Setup       Setup
	Measure     Measure
	// Progress, if set, is called after each finished table.
	Progress func(done, total int)
	Logger   *slog.Logger // nil discards
	// NewTables starts a new table beside a stored one whose recipe is not
	// the one asked for (its ID suffixed with the recipe's hash), instead
	// of refusing it (RecipeError).
	NewTables bool
}

// Run is one table's result.
type Run struct {
	Table    string                   `json:"table"`
	Seed     int64                    `json:"seed"`
	Measures Measures                 `json:"measures"`
	Rounds   int                      `json:"rounds"`
	Reason   string                   `json:"end_reason"`
	Failures int                      `json:"failures"` // failed agent actions and rejected ballots
	Actions  int                      `json:"actions"`  // agent actions recorded, failures included
	Usage    roundtable.Usage         `json:"usage"`
	Phases   map[string]time.Duration `json:"phase_wall_ns"`
	Resumed  bool                     `json:"resumed,omitempty"`
	// Provenance is the table's, with the models that answered each seat
	// (Usage.Model): summed up in Result.
	Provenance *roundtable.Provenance `json:"-"`
	Answered   map[string]string      `json:"-"`
}

// Result is a whole simulation.
type Result struct {
	Name    string        `json:"name"`
	Runs    []Run         `json:"runs"`
	Summary Summary       `json:"summary"`
	Wall    time.Duration `json:"wall_ns"`
	// Software are the builds that made the tables; Agents what their
	// model seats think with and which models answered.
	Software []roundtable.Software `json:"software"`
	Agents   []ModelSeats          `json:"agents,omitempty"`
}

// Execute runs spec.Runs tables against store, at most spec.Concurrency at
// once, and aggregates their measures.
func Execute(ctx context.Context, store roundtable.Store, clock roundtable.Clock, spec Spec) (Result, error) {
	if spec.Runs < 1 {
		return Result{}, fmt.Errorf("sim %s: runs must be at least 1", spec.Name)
	}
	limit := spec.Concurrency
	if limit <= 0 {
		limit = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	runs := make([]Run, spec.Runs)
	var mu sync.Mutex
	done := 0
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	for i := range spec.Runs {
		g.Go(func() error {
			r, err := runOne(gctx, store, clock, spec, i)
			if err != nil {
				return err
			}
			runs[i] = r
			mu.Lock()
			done++
			if spec.Progress != nil {
				spec.Progress(done, spec.Runs)
			}
			mu.Unlock()
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Result{}, err
	}
	res := Result{Name: spec.Name, Runs: runs, Wall: time.Since(start)}
	res.Summary = Summarize(runs)
	res.Software, res.Agents = Provenances(runs)
	return res, nil
}

// RunSeed is the seed of run i of a simulation seeded with seed.
func RunSeed(seed int64, i int) int64 { return seed*1_000_003 + int64(i) }

func runOne(ctx context.Context, store roundtable.Store, clock roundtable.Clock, spec Spec, i int) (Run, error) {
	seed := RunSeed(spec.Seed, i)
	id := fmt.Sprintf("%s-%04d", spec.Name, i+1)
	tb, err := spec.Setup(i, seed)
	if err != nil {
		return Run{}, fmt.Errorf("set up %s: %w", id, err)
	}
	tb.Config.Seed = seed
	tb.Config.Provenance = provenance(tb)
	table, id, resumed, err := openOrCreate(ctx, store, clock, tb, id, spec.NewTables)
	if err != nil {
		return Run{}, err
	}
	runner := &roundtable.Runner{Agents: tb.Agents, Timeout: spec.Timeout, Logger: spec.Logger}
	st, err := runner.Run(ctx, table)
	if err != nil {
		return Run{}, fmt.Errorf("run %s: %w", id, err)
	}
	s, err := table.Full(ctx) // with the rounds a bbolt store archived
	if err != nil {
		return Run{}, fmt.Errorf("read %s: %w", id, err)
	}
	r := Run{Table: id, Seed: seed, Rounds: len(s.Rounds), Reason: s.EndReason, Resumed: resumed,
		Phases: map[string]time.Duration{}, Provenance: s.Config.Provenance, Answered: Answered(s)}
	for p, d := range st.Phases {
		r.Phases[p.String()] = d
	}
	for _, rr := range s.Rounds {
		r.Failures += len(rr.Failures) + len(rr.Rejected)
		r.Actions += actions(rr)
		for _, u := range rr.Usage {
			r.Usage = r.Usage.Add(u)
		}
	}
	if spec.Measure != nil {
		r.Measures = spec.Measure(tb.Task, s)
	}
	return r, nil
}

// actions counts the agent actions a round recorded: messages, proposals,
// skips, failures, and ballots (counted, abstained or rejected).
func actions(rr roundtable.RoundRecord) int {
	n := len(rr.Messages) + len(rr.Proposals) + len(rr.Skipped) + len(rr.Failures)
	if rr.Tally != nil {
		n += rr.Tally.Counted + rr.Tally.Abstained + len(rr.Rejected)
	}
	return n
}
