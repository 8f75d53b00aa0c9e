// Package experiment runs the papers' experiments headless: it turns what a
// simulation asks for (Options: a task or a protocol, the agents, the
// rules, the runs) into designs, runs each design's tables per rule with
// package sim, and reports their figures with units (Report, written as
// summary.json, and printed as the papers' tables). Analyze turns stored
// runs into the papers' tables and figures. Nothing here knows a
// protocol by name: protocols answer through package protocol.
package experiment

import (
	"fmt"
	"runtime"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Experiment is what one simulation runs: its designs (one, or one per
// cell of a grid), each once per rule.
type Experiment struct {
	opt      Options
	agent    string               // the agents' kind, resolved
	protocol *roundtable.Protocol // the schedule summary.json names; nil: RoundTable's
	// instruments are what the protocol's measures read texts with.
	instruments []analysis.InstrumentVersion
	designs     []*Design
	units       map[string]string // of the figures beyond the common ones
	printer     printer
}

// Design is one condition: the prefix of its tables' IDs, their schedule,
// the grid cell it is ("" without a grid), and the plan that sets up and
// measures the table of each run.
type Design struct {
	Name     string
	Protocol *roundtable.Protocol
	Cell     string
	plan     plan
}

// plan sets up the table of each run and measures it. It is
// deterministic in (run, seed): a resumed run rebuilds the same table.
type plan interface {
	task(run int, seed int64) (roundtable.Task, error)
	seats(run int, seed int64, k int) ([]roundtable.Participant, error)
	agents(task roundtable.Task, ps []roundtable.Participant) (map[string]roundtable.Agent, error)
	measure(task roundtable.Task, s *roundtable.State) sim.Measures
}

// Designs are the experiment's designs, in the order they run.
func (e *Experiment) Designs() []*Design { return e.designs }

// Agent is the kind of the experiment's agents.
func (e *Experiment) Agent() string { return e.agent }

// New picks the experiment opt asks for: a protocol's, or one of
// RoundTable's tasks with rule-based, baseline or language-model agents.
// An error with code roundtable.Invalid says which option is at fault,
// named as sim's flag.
func New(opt Options) (*Experiment, error) {
	switch {
	case opt.Agents < 2 || opt.Agents > MaxAgents:
		return nil, invalid("--agents: %d is out of range 2..%d", opt.Agents, MaxAgents)
	case opt.Runs < 1:
		return nil, invalid("--runs: must be at least 1")
	case len(opt.Rules) == 0:
		return nil, invalid("--rule: name a rule, or all")
	}
	p, ok := protocol.Lookup(opt.Protocol.Protocol)
	if !ok {
		_, err := protocol.Build(opt.Protocol)
		return nil, invalidErr(err)
	}
	e := &Experiment{opt: opt, agent: opt.Agent}
	for _, r := range opt.Rules {
		if _, err := e.tableConfig(r); err != nil {
			return nil, err
		}
	}
	if err := e.checkSeating(); err != nil {
		return nil, err
	}
	if h, ok := p.(protocol.Headless); ok {
		return e, e.named(e.protocolDesigns(p, h))
	}
	if _, err := protocol.Build(opt.Protocol); err != nil {
		return nil, invalidErr(err)
	}
	return e, e.named(e.taskDesign())
}

// named checks that an experiment whose tables are named (Options.Name)
// has one design and one rule, whose tables the name is.
func (e *Experiment) named(err error) error {
	if err != nil || e.opt.Name == "" {
		return err
	}
	if len(e.designs) != 1 || len(e.opt.Rules) != 1 {
		return invalid("--name: tables named %q must be of one condition: one rule and one cell, not %d rules and %d cells", e.opt.Name, len(e.opt.Rules), len(e.designs))
	}
	return nil
}

// tableConfig is the config of every table of a rule.
func (e *Experiment) tableConfig(rule vote.Rule) (roundtable.Config, error) {
	o := e.opt
	if o.Quorum < 0 || o.Quorum > o.Agents {
		return roundtable.Config{}, invalid("--quorum: %d is out of range 0..%d (the agents of a table)", o.Quorum, o.Agents)
	}
	c := roundtable.Config{Rule: rule, Tie: o.Tie, Rounds: o.Rounds, EarlyStop: o.EarlyStop, Mode: roundtable.Sealed, Quorum: o.Quorum}
	c = c.WithDefaults()
	if err := c.Validate(); err != nil {
		return c, invalidErr(err)
	}
	return c, nil
}

// spec is the simulation of design d under rule.
func (e *Experiment) spec(d *Design, rule vote.Rule, tc roundtable.Config) sim.Spec {
	o := e.opt
	name := fmt.Sprintf("%s-%s-k%d-r%d-s%d", d.Name, rule, o.Agents, o.Rounds, o.Seed)
	if o.Name != "" {
		name = o.Name
	}
	return sim.Spec{
		Name:        name,
		NewTables:   o.NewTables,
		Runs:        o.Runs,
		Seed:        o.Seed,
		Concurrency: e.concurrency(),
		Timeout:     o.PhaseTimeout,
		Measure:     d.plan.measure,
		Logger:      o.Logger,
		Setup: func(i int, seed int64) (sim.Table, error) {
			task, err := d.plan.task(i, seed)
			if err != nil {
				return sim.Table{}, err
			}
			cfg := tc
			cfg.Task = roundtable.TaskSpec{Kind: task.Kind(), Topic: o.Topic, Params: map[string]string{"preset": o.Preset}}
			if st, ok := task.(interface{ Spec() roundtable.TaskSpec }); ok {
				cfg.Task = st.Spec() // what the table is about, with private ground truth
			}
			cfg.Protocol, cfg.Durations, cfg.Audit = d.Protocol, o.Durations, o.Audit
			if cfg.Participants, err = d.plan.seats(i, seed, o.Agents); err != nil {
				return sim.Table{}, err
			}
			agents, err := d.plan.agents(task, cfg.Participants)
			if err != nil {
				return sim.Table{}, err
			}
			cfg.Labels = e.labels(i, cfg.Participants)
			return sim.Table{Task: task, Config: cfg, Agents: agents}, nil
		},
	}
}

// concurrency is how many tables run at once: the options', else 16 per
// CPU, or 4 per CPU with language models. Model-free agents cost little
// CPU: what bounds them is the fsync of every commit, which more tables in
// flight share (bbolt batches concurrent writers). Model agents wait on
// their endpoint, whose own limits bound the requests in flight.
func (e *Experiment) concurrency() int {
	if e.opt.Concurrency > 0 {
		return e.opt.Concurrency
	}
	if e.agent == "llm" {
		return 4 * runtime.GOMAXPROCS(0)
	}
	return 16 * runtime.GOMAXPROCS(0)
}

// eachSeat is the agents of a table: the agent of returns for each
// participant, by its seat's number.
func eachSeat(task roundtable.Task, ps []roundtable.Participant, of func(int, roundtable.Participant) (roundtable.Agent, error)) (map[string]roundtable.Agent, error) {
	out := make(map[string]roundtable.Agent, len(ps))
	for i, p := range ps {
		ag, err := of(i, p)
		if err != nil {
			return nil, err
		}
		out[p.ID] = ag
	}
	return out, nil
}

// invalid is an error in the options, which the caller shows as bad input.
func invalid(format string, args ...any) error {
	return roundtable.Errorf(roundtable.Invalid, format, args...)
}

// invalidErr marks err as an error in the options.
func invalidErr(err error) error {
	if err == nil || roundtable.ErrorCode(err) == roundtable.Invalid {
		return err
	}
	return &roundtable.Error{Code: roundtable.Invalid, Message: err.Error()}
}
