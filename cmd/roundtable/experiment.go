package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// experiment is one task with one kind of agent, ready to run per rule.
type experiment struct {
	name    string
	task    func(run int, seed int64) (roundtable.Task, error)
	agents  func(task roundtable.Task, ps []roundtable.Participant) (map[string]roundtable.Agent, error)
	people  func(k int) []roundtable.Participant
	measure sim.Measure
	print   func(w io.Writer, rules []vote.Rule, rep simReport)
	// Set by protocol experiments: the schedule, seats drawn per run, and
	// the units of the figures.
	protocol *roundtable.Protocol
	seats    func(run int, seed int64, k int) ([]roundtable.Participant, error)
	units    map[string]string
	// Set by the panel over an α/tolerance grid: one experiment per cell
	// (variants), each naming its cell.
	grid []*experiment
	cell string
}

// eachSeat is an experiment's agents: the agent of returns for each
// participant, in seat order.
func eachSeat(of func(task roundtable.Task, p roundtable.Participant) (roundtable.Agent, error)) func(roundtable.Task, []roundtable.Participant) (map[string]roundtable.Agent, error) {
	return func(task roundtable.Task, ps []roundtable.Participant) (map[string]roundtable.Agent, error) {
		out := make(map[string]roundtable.Agent, len(ps))
		for _, p := range ps {
			ag, err := of(task, p)
			if err != nil {
				return nil, err
			}
			out[p.ID] = ag
		}
		return out, nil
	}
}

func (e *experiment) spec(rule vote.Rule, tc roundtable.Config, f simFlags) sim.Spec {
	return sim.Spec{
		Name:        fmt.Sprintf("%s-%s-k%d-r%d-s%d", e.name, rule, f.agents, f.rounds, f.seed),
		Runs:        f.runs,
		Seed:        f.seed,
		Concurrency: f.concurrency,
		Timeout:     f.phaseTimeout,
		Measure:     e.measure,
		Setup: func(i int, seed int64) (sim.Table, error) {
			task, err := e.task(i, seed)
			if err != nil {
				return sim.Table{}, err
			}
			cfg := tc
			cfg.Task = roundtable.TaskSpec{Kind: task.Kind(), Topic: f.topic, Params: map[string]string{"preset": f.preset}}
			if st, ok := task.(interface{ Spec() roundtable.TaskSpec }); ok {
				cfg.Task = st.Spec() // what the table is about, with private ground truth
			}
			cfg.Protocol = e.protocol
			if cfg.Participants, err = e.seatsFor(i, seed, f.agents); err != nil {
				return sim.Table{}, err
			}
			agents, err := e.agents(task, cfg.Participants)
			if err != nil {
				return sim.Table{}, err
			}
			return sim.Table{Task: task, Config: cfg, Agents: agents}, nil
		},
	}
}

func (e *experiment) seatsFor(run int, seed int64, k int) ([]roundtable.Participant, error) {
	if e.seats != nil {
		return e.seats(run, seed, k)
	}
	return e.people(k), nil
}

// maxSimAgents bounds --agents. Candidates are labelled A..Z, AA, AB, ...
// so any number fits; the bound only keeps an exchange proposal (K x K
// amounts, written in every prompt and log entry) of a sane size.
const maxSimAgents = 100

// experiment picks the task and agents of a sim from the flags.
func (a *App) experiment(cfg Config, f simFlags) (*experiment, error) {
	switch {
	case f.agents < 2 || f.agents > maxSimAgents:
		return nil, usagef("--agents: %d is out of range 2..%d", f.agents, maxSimAgents)
	case f.runs < 1:
		return nil, usagef("--runs: must be at least 1")
	}
	pr, err := f.proto.protocol("--protocol")
	if err != nil {
		return nil, usageError{err}
	}
	if pr != nil && pr.Name == panel.Name {
		return a.panelExperiment(cfg, f)
	}
	if err := f.notPanel(); err != nil {
		return nil, err
	}
	if pr != nil {
		return a.protocolExperiment(cfg, f, pr)
	}
	switch f.agent {
	case "utility":
		if f.task != "exchange" {
			return nil, usagef("--task %s needs language-model agents (--agent llm) or, for recommendation, --agent baseline; utility agents only play the exchange economy", f.task)
		}
		return exchangeUtility(f)
	case "llm":
		return a.llmExperiment(cfg, f)
	case "baseline":
		if f.task != "recommendation" {
			return nil, usagef("--agent baseline plays the recommendation task only (--task recommendation)")
		}
		return recommendBaseline(f)
	}
	return nil, usagef("--agent: %q is not utility, baseline or llm", f.agent)
}

func exchangeUtility(f simFlags) (*experiment, error) {
	task, err := exchange.NewTask(f.agents, exchange.Preset(f.preset))
	if err != nil {
		return nil, usagef("--preset: %v", err)
	}
	task.Econ.UMax() // solve once, before the tables share it
	return &experiment{
		name:   "exchange-utility",
		task:   func(int, int64) (roundtable.Task, error) { return task, nil },
		people: agentSeats,
		agents: eachSeat(func(roundtable.Task, roundtable.Participant) (roundtable.Agent, error) {
			return &exchange.UtilityAgent{Task: task}, nil
		}),
		measure: measureExchange,
		print:   printExchange,
	}, nil
}

// agentSeats names k utility-agent seats agent-1 .. agent-k.
func agentSeats(k int) []roundtable.Participant { return seats(k, "utility") }

// seats names k seats agent-1 .. agent-k played by agents of the kind.
func seats(k int, kind string) []roundtable.Participant {
	ps := make([]roundtable.Participant, k)
	for i := range ps {
		ps[i] = roundtable.Participant{ID: fmt.Sprintf("agent-%d", i+1), Name: fmt.Sprintf("Agent %d", i+1), Kind: roundtable.Bot, Agent: kind}
	}
	return ps
}

// exchangeRounds are the rounds at which the paper reports U and AUC.
var exchangeRounds = []int{3, 5, 10}

func measureExchange(t roundtable.Task, s *roundtable.State) sim.Measures {
	m := t.(*exchange.Task).Measure(s)
	rounds := s.Config.Rounds
	u := make([]float64, rounds)
	for r := 1; r <= rounds; r++ {
		u[r-1] = 100 * m.At(r)
	}
	sc := map[string]float64{
		"rationality": 100 * m.Rationality,
		"fairness":    100 * m.Fairness,
		"rigidity":    100 * m.Rigidity,
		"U_final":     100 * m.At(rounds),
	}
	for _, n := range exchangeRounds {
		sc[fmt.Sprintf("U@%d", n)] = 100 * m.At(n)
		sc[fmt.Sprintf("AUC@%d", n)] = m.AUC(n)
		sc[fmt.Sprintf("AUC@%d_mean", n)] = 100 * m.AUC(n) / float64(n)
	}
	if m.Proposals == 0 {
		sc["rationality"] = math.NaN()
	}
	out := sim.Measures{Series: map[string][]float64{"U": u, "coverage": coverage(s)}, Scalars: sc}
	addFormatErrors(out, s)
	return out
}

// printExchange prints the columns of the paper's Table 1, in percent of
// U_max (AUC@n as the mean over its n rounds, as the paper prints it).
func printExchange(w io.Writer, rules []vote.Rule, rep simReport) {
	fmt.Fprintf(w, "Exchange economy, %d agents, %d rounds, %d runs per rule, seed %d (mean, standard error in parentheses; percent of U_max)\n",
		rep.Agents, rep.Rounds, rep.Runs, rep.Seed)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "RULE\tU@3\tU@5\tU@10\tAUC@3\tAUC@5\tAUC@10\tRATIONALITY\tMIN/MAX\tRIGIDITY\tFAILED ACTIONS\t")
	cols := []string{"U@3", "U@5", "U@10", "AUC@3_mean", "AUC@5_mean", "AUC@10_mean", "rationality", "fairness", "rigidity"}
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t", r)
		s := rep.Rules[string(r)].Summary
		for _, c := range cols {
			fmt.Fprintf(tw, "%s\t", formatStat(s.Scalars[c]))
		}
		fmt.Fprintf(tw, "%s\t\n", failedActions(s))
	}
	_ = tw.Flush()
	printCoverage(w, rules, rep)
	printFailureKinds(w, rules, rep)
}

func formatStat(s sim.Stat) string {
	if math.IsNaN(s.Mean) || s.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f (%.2f)", s.Mean, s.SE)
}

// failedActions is the FAILED ACTIONS column of every printed table: the
// actions that failed (model errors, timeouts, format errors, rejected
// ballots) out of all asked, so a run whose model calls failed cannot pass
// for a normal one.
func failedActions(s sim.Summary) string {
	if s.Actions == 0 {
		return fmt.Sprintf("%d", s.Failures)
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", s.Failures, s.Actions, 100*float64(s.Failures)/float64(s.Actions))
}
