package main

import (
	"cmp"
	"fmt"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// dyadsConditionKeys are the recorded conditions of a dyads run
// (DyadSettings.record), one CSV column each.
var dyadsConditionKeys = []string{"control", "memory", "confirmation_bias", "framing", "stances", "exchange"}

// dyadsArtifacts are Opinion dynamics' Table 1 (B and D of the final
// opinions per condition, the controls included, as CSV and a heat map)
// and its trajectories (B and D after each step per condition).
func dyadsArtifacts(c map[string][]sim.Measures, params map[string]map[string]string, firsts map[string]*roundtable.State) []report.Artifact {
	keys := []string{"B_final", "D_final", "B_rounded", "D_rounded", "B_initial", "D_initial"}
	table := scalarTable("dyads_bias_diversity", "Opinion dynamics, Table 1",
		"Bias B and diversity D of the final opinions per condition (control, memory, confirmation bias, framing, starting opinions; mean and standard error over tables; opinions on -2..2), also as a heat map.",
		c, keys)
	table.CSV = withColumns(table.CSV, params, dyadsConditionKeys)
	heat := &report.Heat{Title: "Opinion dynamics: final B and D per condition", XLabel: "figure", Cols: []string{"B_final", "D_final"}, Min: -2, Max: 2}
	for _, cond := range sim.Keys(c) {
		row := make([]float64, len(heat.Cols))
		for j, k := range heat.Cols {
			row[j] = scalarStat(c[cond], k).Mean
		}
		heat.Rows, heat.Values = append(heat.Rows, cond), append(heat.Values, row)
	}
	table.Heat = heat
	out := []report.Artifact{table,
		seriesChart("dyads_trajectories", "Opinion dynamics, Figure 4", "Diversity D of the opinions after each step, per condition.",
			c, "D", "step", "D (opinion on -2..2)"),
		seriesChart("dyads_bias_trajectories", "Opinion dynamics, Figure 4 (bias)", "Bias B (mean opinion) after each step, per condition.",
			c, "B", "step", "B (opinion on -2..2)")}
	for _, cond := range sim.Keys(c) {
		if s := firsts[cond]; s != nil {
			out = append(out, agentTrajectories(cond, s))
		}
	}
	return out
}

// agentTrajectories is Opinion dynamics' Figure 4 for one table: every
// agent's opinion after each step, named with its starting opinion.
func agentTrajectories(cond string, s *roundtable.State) report.Artifact {
	start, rows := opinions(s)
	chart := &report.Chart{Title: "Opinion dynamics, Figure 4: " + s.ID, XLabel: "step", YLabel: "opinion (-2..2)"}
	csv := [][]string{{"table", "step", "agent", "start", "opinion"}}
	for i, p := range s.Participants {
		line := report.Line{Name: fmt.Sprintf("%s (start %s)", p.Name, cmp.Or(p.Stance, "none"))}
		for step, row := range rows {
			line.Y = append(line.Y, row[i])
			csv = append(csv, []string{s.ID, strconv.Itoa(step + 1), p.Name, formatFloat(start[i]), formatFloat(row[i])})
		}
		chart.Lines = append(chart.Lines, line)
	}
	return report.Artifact{Name: "dyads_agents_" + sanitize(cond), Title: "Opinion dynamics, Figure 4 (" + cond + ")",
		About: "Each agent's opinion after each step in the condition's first table (lowest ID), named with its starting opinion.", CSV: csv, Chart: chart}
}

// withColumns appends the recorded parameters keys of each row's
// condition (its first cell) to the row.
func withColumns(rows [][]string, params map[string]map[string]string, keys []string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		extra := make([]string, len(keys))
		for j, k := range keys {
			if i == 0 {
				extra[j] = k
			} else {
				extra[j] = params[r[0]][k]
			}
		}
		out[i] = append(append([]string{}, r...), extra...)
	}
	return out
}
