package dyads

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// conditionKeys are the recorded conditions of a dyads run (record), one
// CSV column each.
func conditionKeys() []string {
	return []string{"control", "memory", "confirmation_bias", "framing", "stances", "exchange", "belief_report", "claim"}
}

// Joins implements protocol.Analyst: the dyads' own report.
func (definition) Joins() string { return Name }

// Analyze implements protocol.Analyst: the table's B and D, labelled with
// its recorded conditions, and, with a stance classifier, the unwarranted
// changes of Conversational bias counted over every post of every agent
// against its starting stance (protocol.StanceChanges), the same way as
// in the chatroom.
func (definition) Analyze(ctx context.Context, t protocol.Table, in protocol.Instruments) (protocol.Measured, error) {
	out := protocol.Measured{Measures: measure(t.State), Params: protocol.Params(t.State)}
	if in.Stance == nil {
		return out, nil
	}
	out.Params["stance_from"] = "classifier over every post: " + in.StanceModel
	per, missing, err := protocol.StanceChanges(ctx, t, in, Statement(t.State), "")
	out.Missing = missing
	if err != nil {
		return out, err
	}
	sc := out.Measures.Scalars
	sc["reported_changed_agents"] = sc["changed_agents"] // from the reports, as sim counts it
	maps.Copy(sc, protocol.ChangeScalars(per))
	return out, nil
}

// Statement is the claim a dyads table is about: its survey's question.
func Statement(s *roundtable.State) string {
	for st := range s.Config.Protocol.Steps() {
		if st.Scale != nil && st.Scale.Question != "" {
			return st.Scale.Question
		}
	}
	return s.Config.Task.Topic
}

// Report implements protocol.Reporter: Opinion dynamics' Table 1 (B and
// D of the final opinions per condition, the controls included, as CSV
// and a heat map), its trajectories (B and D after each step per
// condition) and each condition's first table agent by agent.
func (definition) Report(_ context.Context, runs *protocol.Runs) ([]report.Artifact, []string, error) {
	c := runs.Measures
	keys := []string{"B_final", "D_final", "B_rounded", "D_rounded", "B_initial", "D_initial"}
	table := c.Table("dyads_bias_diversity", "Opinion dynamics, Table 1",
		"Bias B and diversity D of the final opinions per condition (control, memory, confirmation bias, framing, starting opinions; mean and standard error over tables; opinions on -2..2), also as a heat map.",
		keys)
	table.CSV = protocol.WithColumns(table.CSV, runs.Params, conditionKeys())
	heat := &report.Heat{Title: "Opinion dynamics: final B and D per condition", XLabel: "figure", Cols: []string{"B_final", "D_final"}, Min: -2, Max: 2}
	for _, cond := range sim.Keys(c) {
		row := make([]float64, len(heat.Cols))
		for j, k := range heat.Cols {
			row[j] = c.Stat(cond, k).Mean
		}
		heat.Rows, heat.Values = append(heat.Rows, runs.Label(cond)), append(heat.Values, row)
	}
	table.Heat = heat
	out := []report.Artifact{table,
		c.Chart("dyads_trajectories", "Opinion dynamics, Figure 4", "Diversity D of the opinions after each step, per condition.",
			"D", "step", "D (opinion on -2..2)", runs.Label),
		c.Chart("dyads_bias_trajectories", "Opinion dynamics, Figure 4 (bias)", "Bias B (mean opinion) after each step, per condition.",
			"B", "step", "B (opinion on -2..2)", runs.Label)}
	for _, cond := range sim.Keys(c) {
		if s := runs.First[cond]; s != nil {
			out = append(out, agentTrajectories(cond, s))
		}
	}
	if t1, t2, ok := acrossTopics(runs); ok {
		out = append(out, t1, t2)
	}
	if classified(c) {
		changes := c.Table("dyads_changes", "Opinion dynamics, unwarranted changes (as Conversational bias counts them)",
			"Per condition: agents with a post whose classified stance differs from their starting stance, by direction (toward the claim's pole, 2, or its complement's, -2), and the posts that changed; reported_changed_agents counts the agents whose final report differs from the start.",
			[]string{"changed_agents", "agents_toward_statement", "agents_toward_complement", "changes", "changes_toward_statement", "changes_toward_complement",
				"classified_messages", "opinion_messages", "reported_changed_agents"})
		changes.CSV = protocol.WithColumns(changes.CSV, runs.Params, []string{"stance_from"})
		out = append(out, changes, c.Matrix("dyads_matrix", "Opinion dynamics, level-to-level matrix of the posts"))
	}
	var notes []string
	if runs.Missing > 0 {
		notes = append(notes, fmt.Sprintf("%d dyads posts have no stance (a model failed; they are left out); run analyze again to retry them.", runs.Missing))
	}
	return out, notes, nil
}

// classified reports whether any table was measured with a stance
// classifier.
func classified(c protocol.Conditions) bool {
	for _, ms := range c {
		for _, m := range ms {
			if _, ok := m.Scalars["classified_messages"]; ok {
				return true
			}
		}
	}
	return false
}

// agentTrajectories is Opinion dynamics' Figure 4 for one table: every
// agent's opinion after each step, named with its starting opinion.
func agentTrajectories(cond string, s *roundtable.State) report.Artifact {
	start, rows := protocol.Opinions(s)
	chart := &report.Chart{Title: "Opinion dynamics, Figure 4: " + cmp.Or(s.Config.Title, s.ID), XLabel: "step", YLabel: "opinion (-2..2)"}
	csv := [][]string{{"table", "step", "agent", "start", "opinion"}}
	for i, p := range s.Participants {
		line := report.Line{Name: fmt.Sprintf("%s (start %s)", p.Name, cmp.Or(p.Stance, "none"))}
		for step, row := range rows {
			line.Y = append(line.Y, row[i])
			csv = append(csv, []string{s.ID, strconv.Itoa(step + 1), p.Name, report.Decimal(start[i]), report.Decimal(row[i])})
		}
		chart.Lines = append(chart.Lines, line)
	}
	return report.Artifact{Name: "dyads_agents_" + report.FileName(cond), Title: "Opinion dynamics, Figure 4 (" + cond + ")",
		About: "Each agent's opinion after each step in the condition's first table (lowest ID), named with its starting opinion.", CSV: csv, Chart: chart}
}
