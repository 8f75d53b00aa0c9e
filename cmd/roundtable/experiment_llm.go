package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// simMinds are the language models of a --agent llm simulation; it is a
// usage error to configure none.
func (a *App) simMinds(cfg Config, f simFlags) (*minds, error) {
	m, err := a.newMinds(cfg, f.llm, mindOptions{seats: f.agents})
	if err != nil {
		return nil, err
	}
	if len(m.clients) == 0 {
		return nil, usagef("--agent llm: no language model is configured: add an [[llm]] endpoint or pass --llm-base-url and --llm-model")
	}
	return m, nil
}

// llmExperiment runs any task with language-model agents.
func (a *App) llmExperiment(cfg Config, f simFlags) (*experiment, error) {
	m, err := a.simMinds(cfg, f)
	if err != nil {
		return nil, err
	}
	e := &experiment{people: llmSeats(cfg.Agents), agents: eachSeat(func(task roundtable.Task, p roundtable.Participant) (roundtable.Agent, error) {
		ag, err := m.agent(p, task)
		if err != nil {
			return nil, err
		}
		return haltOnBroken{Agent: ag, m: m}, nil
	})}
	a.minds = m
	switch f.task {
	case "text":
		if f.topic == "" {
			return nil, usagef("--topic: the text task needs a question, e.g. --topic \"Which feature next?\"")
		}
		task := roundtable.TextTask{Topic: f.topic}
		e.name, e.measure, e.print = "text-llm", measureText, printText
		e.task = func(int, int64) (roundtable.Task, error) { return task, nil }
	case "exchange":
		task, err := exchange.NewTask(f.agents, exchange.Preset(f.preset))
		if err != nil {
			return nil, usagef("--preset: %v", err)
		}
		task.Econ.UMax()
		e.name, e.measure, e.print = "exchange-llm", measureExchange, printExchange
		e.task = func(int, int64) (roundtable.Task, error) { return task, nil }
	case "recommendation":
		return recommendExperiment(e, f)
	default:
		return nil, usagef("--task: %q is not exchange, text or recommendation", f.task)
	}
	return e, nil
}

// llmSeats seats the [[agent]] presets in order (repeating them when a
// table has more seats), or plain agents on the default endpoint.
func llmSeats(presets []AgentConfig) func(k int) []roundtable.Participant {
	return func(k int) []roundtable.Participant {
		ps := make([]roundtable.Participant, k)
		for i := range ps {
			ps[i] = roundtable.Participant{ID: fmt.Sprintf("agent-%d", i+1), Name: fmt.Sprintf("Agent %d", i+1), Kind: roundtable.Bot, Agent: "llm"}
			if len(presets) > 0 {
				pre := presets[i%len(presets)]
				ps[i].Name, ps[i].Background, ps[i].Goal, ps[i].Stance = pre.Name, pre.Background, pre.Goal, pre.Stance
				ps[i].Agent = "preset:" + pre.Name
				if i >= len(presets) {
					ps[i].Name = fmt.Sprintf("%s %d", pre.Name, i/len(presets)+1)
				}
			}
		}
		return ps
	}
}

// measureText: whether a decision stands after each round, the first
// round of agreement, and format errors per agent and phase.
func measureText(_ roundtable.Task, s *roundtable.State) sim.Measures {
	first := math.NaN()
	for r, rr := range s.Rounds {
		if rr.Tally != nil && rr.Tally.Winner != "" {
			first = float64(r + 1)
			break
		}
	}
	cov := coverage(s)
	m := sim.Measures{Series: map[string][]float64{"decided": cov, "coverage": cov}, Scalars: map[string]float64{"first_agreement": first}}
	addFormatErrors(m, s)
	return m
}

// addFormatErrors counts format errors per agent and phase kind.
func addFormatErrors(m sim.Measures, s *roundtable.State) {
	total := 0.0
	for _, c := range agent.FormatErrors(s) {
		m.Scalars[fmt.Sprintf("format_errors/%s/%s", c.Participant, c.Phase)] += float64(c.Count)
		total += float64(c.Count)
	}
	m.Scalars["format_errors"] = total
	addFailureKinds(m, s)
}

func printText(w io.Writer, rules []vote.Rule, rep simReport) {
	fmt.Fprintf(w, "Free-text task, %d agents, %d rounds, %d runs per rule\n", rep.Agents, rep.Rounds, rep.Runs)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "RULE\tDECIDED@R (%)\tFIRST AGREEMENT\tFORMAT ERRORS/TABLE\tFAILED ACTIONS\tTOKENS\t")
	for _, r := range rules {
		s := rep.Rules[string(r)].Summary
		dec := s.Series["decided"]
		last := sim.Stat{}
		if len(dec) > 0 {
			last = dec[len(dec)-1]
			last.Mean, last.SE = 100*last.Mean, 100*last.SE
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t\n", r, formatStat(last), formatStat(s.Scalars["first_agreement"]),
			formatStat(s.Scalars["format_errors"]), failedActions(s), s.Tokens)
	}
	_ = tw.Flush()
	printFormatErrors(w, rules, rep)
}

// printCoverage prints, per rule, the share of tables with a decision
// after each round (Figure 2 plots its complement).
func printCoverage(w io.Writer, rules []vote.Rule, rep simReport) {
	for _, rule := range rules {
		fmt.Fprintf(w, "tables with a decision, %s, by round:", rule)
		for _, st := range rep.Rules[string(rule)].Summary.Series["coverage"] {
			fmt.Fprintf(w, " %.0f%%", 100*st.Mean)
		}
		fmt.Fprintln(w)
	}
}

// printFormatErrors lists the mean format errors per table by rule, agent
// and phase, which the paper compares across rules.
func printFormatErrors(w io.Writer, rules []vote.Rule, rep simReport) {
	printFailureKinds(w, rules, rep)
	for _, r := range rules {
		sc := rep.Rules[string(r)].Summary.Scalars
		for _, k := range sim.Keys(sc) {
			if len(k) > len("format_errors/") && k[:len("format_errors/")] == "format_errors/" {
				fmt.Fprintf(w, "format errors %s %s: %.2f per table\n", r, k[len("format_errors/"):], sc[k].Mean)
			}
		}
	}
}
