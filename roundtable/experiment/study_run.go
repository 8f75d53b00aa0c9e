package experiment

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// StudyRun says how a study runs headless.
type StudyRun struct {
	// Model makes the language-model agents; nil when no condition seats
	// one (New refuses a condition that does).
	Model Model
	// Replications, when positive, replaces the study's (a small run).
	Replications int
	Concurrency  int  // tables at once (0: the experiment's default)
	NewTables    bool // start new tables beside stored ones of another recipe
	Logger       *slog.Logger
	Progress     func() // called after each finished table
}

// StudyReport is a headless study's results, as its summary.json holds
// them: each condition's Report.
type StudyReport struct {
	Study        string              `json:"study"`
	Seed         int64               `json:"seed"`
	Replications int                 `json:"replications"`
	Software     roundtable.Software `json:"software"`
	Started      time.Time           `json:"started"`
	WallNS       time.Duration       `json:"wall_ns"`
	Conditions   map[string]Report   `json:"conditions"`
}

// Experiments are the experiments of the study's conditions, in order:
// each runs its condition's tables.
func (s *Study) Experiments(run StudyRun) ([]*Experiment, error) {
	out := make([]*Experiment, 0, len(s.Conditions))
	for _, c := range s.Conditions {
		o, err := s.Options(c, run.Model)
		if err != nil {
			return nil, fmt.Errorf("condition %q: %w", c.Name, err)
		}
		if run.Replications > 0 {
			o.Runs = run.Replications
		}
		o.Concurrency, o.NewTables, o.Logger = run.Concurrency, run.NewTables, run.Logger
		e, err := New(o)
		if err != nil {
			return nil, fmt.Errorf("condition %q: %w", c.Name, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// Run runs every condition's tables against store, condition after
// condition: tables already there are resumed or reused when their
// recipe is the one asked (package sim), so a killed run goes on where it
// stopped.
func (s *Study) Run(ctx context.Context, store roundtable.Store, clock roundtable.Clock, run StudyRun) (StudyReport, error) {
	rep := StudyReport{Study: s.Name, Seed: s.Seed, Replications: s.Replications, Software: roundtable.RunningSoftware(),
		Started: time.Now().UTC(), Conditions: map[string]Report{}}
	if run.Replications > 0 {
		rep.Replications = run.Replications
	}
	exps, err := s.Experiments(run)
	if err != nil {
		return rep, err
	}
	for i, e := range exps {
		r, err := e.Run(ctx, store, clock, run.Progress)
		if err != nil {
			return rep, fmt.Errorf("condition %q: %w", s.Conditions[i].Name, err)
		}
		rep.Conditions[s.Conditions[i].Name] = r
	}
	rep.WallNS = time.Since(rep.Started)
	return rep, nil
}

// Print prints each condition's report as its experiment's paper prints
// it, under the condition's name.
func (s *Study) Print(w io.Writer, rep StudyReport) error {
	exps, err := s.Experiments(StudyRun{Model: refuseModel})
	if err != nil {
		return err
	}
	for i, e := range exps {
		r, ok := rep.Conditions[s.Conditions[i].Name]
		if !ok {
			continue
		}
		fmt.Fprintf(w, "\n== condition %s: %s\n", s.Conditions[i].Name, s.Conditions[i].Summary())
		e.Print(w, r)
	}
	return nil
}

// SeatsModels reports whether any condition seats language models.
func (s *Study) SeatsModels() bool {
	return slices.ContainsFunc(s.Conditions, func(c Condition) bool { return c.Agent == "llm" })
}

// Endpoints are the [[llm]] endpoints the study's bots name, with where
// ("condition NAME bot[i]"), for checking them against the config.
func (s *Study) Endpoints() map[string]string {
	out := map[string]string{}
	for _, c := range s.Conditions {
		bots := c.Bots
		if c.StandIn != nil {
			bots = append(slices.Clone(bots), *c.StandIn)
		}
		for i, b := range bots {
			if _, seen := out[b.Endpoint]; b.Endpoint != "" && !seen {
				out[b.Endpoint] = fmt.Sprintf("condition %q bot[%d].endpoint", c.Name, i)
			}
		}
	}
	return out
}

// MaxSeats is the most seats a table of the study has.
func (s *Study) MaxSeats() int {
	n := 0
	for _, c := range s.Conditions {
		n = max(n, c.Seats)
	}
	return n
}

// Only keeps the conditions named, in the study's order (a run of some
// of them); a name that is no condition of the study is an error that
// lists them.
func (s *Study) Only(names []string) error {
	var kept []Condition
	for _, n := range names {
		if !slices.ContainsFunc(s.Conditions, func(c Condition) bool { return c.Name == n }) {
			all := make([]string, len(s.Conditions))
			for i, c := range s.Conditions {
				all[i] = c.Name
			}
			return fmt.Errorf("--condition: study %s has no condition %q (it has %s)", s.Name, n, strings.Join(all, ", "))
		}
	}
	for _, c := range s.Conditions {
		if slices.Contains(names, c.Name) {
			kept = append(kept, c)
		}
	}
	s.Conditions = kept
	return nil
}
