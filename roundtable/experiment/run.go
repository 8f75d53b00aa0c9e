package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Report is a simulation's results, as summary.json holds them.
type Report struct {
	Task   string `json:"task"`
	Agent  string `json:"agent"`
	Agents int    `json:"agents"`
	Rounds int    `json:"rounds"`
	Runs   int    `json:"runs"`
	Seed   int64  `json:"seed"`
	// Software is the build that ran the simulation (each result lists
	// the builds that made its tables).
	Software roundtable.Software   `json:"software"`
	Started  time.Time             `json:"started"`
	WallNS   time.Duration         `json:"wall_ns"`
	Units    map[string]string     `json:"units"` // the unit of every metric below
	Rules    map[string]sim.Result `json:"rules"` // by rule, and grid cell (resultKey)
	// Protocol is the schedule's name, when not RoundTable's, and Params
	// its recorded parameters (a dyads run's condition).
	Protocol string            `json:"protocol,omitempty"`
	Params   map[string]string `json:"params,omitempty"`
	// Instruments are what the protocol's measures read texts with,
	// with the versions of their data (protocol.Instrumented).
	Instruments []analysis.InstrumentVersion `json:"instruments,omitempty"`
}

// Tables is how many tables the experiment runs.
func (e *Experiment) Tables() int { return len(e.opt.Rules) * e.opt.Runs * len(e.designs) }

// Run runs every design's tables under every rule against store: tables
// already there are resumed or reused (package sim). progress, if set, is
// called after each finished table.
func (e *Experiment) Run(ctx context.Context, store roundtable.Store, clock roundtable.Clock, progress func()) (Report, error) {
	o := e.opt
	rep := Report{Task: o.Task, Agent: e.agent, Agents: o.Agents, Rounds: o.Rounds, Runs: o.Runs, Seed: o.Seed,
		Software: roundtable.RunningSoftware(), Started: time.Now().UTC(), Units: withUnits(metricUnits(), e.units), Rules: map[string]sim.Result{}}
	if e.protocol != nil {
		rep.Protocol, rep.Params, rep.Instruments = e.protocol.Name, e.protocol.Params, e.instruments
	}
	for _, rule := range o.Rules {
		tc, err := e.tableConfig(rule)
		if err != nil {
			return rep, err
		}
		for _, d := range e.designs {
			spec := e.spec(d, rule, tc)
			if progress != nil {
				spec.Progress = func(int, int) { progress() }
			}
			res, err := sim.Execute(ctx, store, clock, spec)
			if err != nil {
				return rep, err
			}
			rep.Rules[resultKey(string(rule), d)] = res
		}
	}
	rep.WallNS = time.Since(rep.Started)
	return rep, nil
}

// resultKey keys a result in summary.json: the rule, and the grid cell
// when there is a grid.
func resultKey(rule string, d *Design) string {
	if d.Cell == "" {
		return rule
	}
	return fmt.Sprintf("%s/%s", rule, d.Cell)
}

// Write writes the report as JSON to path (summary.json).
func (r Report) Write(path string) error { return writeJSON(path, r) }

// Write writes the study's report as JSON to path (summary.json).
func (r StudyReport) Write(path string) error { return writeJSON(path, r) }

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
