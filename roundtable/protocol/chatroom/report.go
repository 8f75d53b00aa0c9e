package chatroom

import (
	"context"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Joins implements protocol.Analyst: the chatroom's own report.
func (definition) Joins() string { return Name }

// Analyze implements protocol.Analyst: the chatroom's figures with the
// stance classified from every message of every agent, public and
// private (Conversational bias, section 3: the signal agent reads each
// new message, and the private messages reveal the final opinions): an
// agent changed when a message expresses an opinion at a level other
// than the assigned one, with the direction of each change and the
// level-to-level matrix. The self-reported changes stay beside them as
// reported_*. Without a classifier the self-reports count.
func (definition) Analyze(ctx context.Context, t protocol.Table, in protocol.Instruments) (protocol.Measured, error) {
	s := t.State
	params := protocol.Params(s)
	m := Measure(s)
	sc := m.Scalars
	if ps, ok := personaScalars(s); ok {
		maps.Copy(sc, ps)
	}
	if in.Stance == nil {
		params["stance_from"] = "self-report"
		return protocol.Measured{Measures: m, Params: params}, nil
	}
	params["stance_from"] = "classifier over every message: " + in.StanceModel
	sc["reported_changed_agents"], sc["reported_chat_changed"] = sc["changed_agents"], sc["chat_changed"]
	per, missing, err := protocol.StanceChanges(ctx, t, in, statementOf(s), s.Config.Protocol.Params["complement"])
	out := protocol.Measured{Measures: m, Params: params, Missing: missing}
	if err != nil {
		return out, err
	}
	maps.Copy(sc, protocol.ChangeScalars(per))
	sc["M"] = sc["messages"]
	return out, nil
}

// statementOf is what a chatroom's stance is about: its survey's
// question, else the table's topic.
func statementOf(s *roundtable.State) string {
	for st := range s.Config.Protocol.Steps() {
		if st.Scale != nil && st.Scale.Question != "" {
			return st.Scale.Question
		}
	}
	return s.Config.Task.Topic
}

// Report implements protocol.Reporter: the share of chats with an
// unwarranted change and the agents that changed per condition, with
// the direction of the changes, the level-to-level matrix, the Likert
// questionnaire's baseline, and the share against M.
func (definition) Report(_ context.Context, runs *protocol.Runs) ([]report.Artifact, []string, error) {
	c := runs.Measures
	keys := []string{"chat_changed", "changed_agents", "agents_toward_statement", "agents_toward_complement", "changes",
		"changes_toward_statement", "changes_toward_complement", "classified_messages", "opinion_messages",
		"classified_agents", "no_opinion_agents", "reported_chat_changed", "reported_changed_agents", "M", "messages", "private_messages"}
	about := ""
	if c.Has(personaKeys[0]) { // model personas followed the opinion signal
		keys = append(keys, personaKeys...)
		about = " Model personas followed the opinion signal: persona_updates counts the messages after which the author's persona moved to another level, " +
			"updated_agents the agents whose persona moved, and signal_missing the messages the signal failed on (the persona stayed)."
	}
	t := c.Table("chatroom_changes", "Conversational bias, opinion change (Figures 3 to 5)",
		"Per condition (stance assignment and M messages): share of chats with an unwarranted change (chat_changed) and agents that changed, "+
			"from the stance classifier over every message of every agent, public and private (stance_from names it), with the direction: "+
			"agents and messages that moved toward the statement's pole (2) or the complement's (-2); reported_* are the agents' own final self-reports. "+

			"Questionnaire rows are the one-shot Likert baseline (self-reports, no conversation; its scores are in chatroom_likert.csv)."+about, keys)
	t.CSV = protocol.WithColumns(t.CSV, runs.Params, []string{"stance_from"})
	var notes []string
	if runs.Missing > 0 {
		notes = append(notes, fmt.Sprintf("%d messages have no stance (a model failed; they are left out); run analyze again to retry them.", runs.Missing))
	}
	out := []report.Artifact{t, c.Matrix("chatroom_matrix", "Conversational bias, level-to-level matrix")}
	if l, ok := likert(c); ok {
		out = append(out, l)
	}
	return append(out, changeAgainstM(c, runs.Label)), notes, nil
}

// likert is the one-shot Likert baseline (Conversational bias, Figure 2)
// per questionnaire condition: the mean deviation from "strongly agree"
// of each side and the -4..4 score, over the repeats (tables), as CSV and
// a heat map.
func likert(c protocol.Conditions) (report.Artifact, bool) {
	keys := []string{"likert_score", "likert_statement", "likert_complement", "likert_answers_statement", "likert_answers_complement"}
	rows := [][]string{{"condition", "tables"}}
	for _, k := range keys {
		rows[0] = append(rows[0], k, k+"_se")
	}
	heat := &report.Heat{Title: "Conversational bias, Figure 2: one-shot Likert score", XLabel: "score (4: the liberal persona answers strongly conservative; -4: the opposite)",
		Cols: []string{"likert_score"}, Min: -4, Max: 4}
	for _, cond := range sim.Keys(c) {
		if c.Stat(cond, "likert_answers_statement").Mean+c.Stat(cond, "likert_answers_complement").Mean == 0 || math.IsNaN(c.Stat(cond, "likert_answers_statement").Mean) {
			continue
		}
		row := []string{cond, strconv.Itoa(len(c[cond]))}
		for _, k := range keys {
			st := c.Stat(cond, k)
			row = append(row, report.Decimal(st.Mean), report.Decimal(st.SE))
		}
		rows = append(rows, row)
		heat.Rows, heat.Values = append(heat.Rows, cond), append(heat.Values, []float64{c.Stat(cond, "likert_score").Mean})
	}
	if len(rows) == 1 {
		return report.Artifact{}, false
	}
	return report.Artifact{Name: "chatroom_likert", Title: "Conversational bias, Figure 2 (one-shot Likert baseline)",
		About: "Per questionnaire condition, over its tables (repeats): the mean deviation from \"strongly agree\" (0..4) of the answers of the personas assigned 2 (statement) and -2 (complement), each about its own side, and the score = statement side − complement side, -4..4 (a side without answers counts 0).",
		CSV:   rows, Heat: heat}, true
}

// roundsPart is the -rN part of a condition's name, which changeAgainstM
// groups over.
var roundsPart = regexp.MustCompile(`-r\d+-`)

// changeAgainstM plots the share of chats with a change against M, one
// line per condition apart from M (or per title, for titled tables).
func changeAgainstM(c protocol.Conditions, label func(string) string) report.Artifact {
	chart := &report.Chart{Title: "Conversational bias: share of chats with an unwarranted change against M", XLabel: "M (messages)", YLabel: "share of chats"}
	rows := [][]string{{"group", "M", "chat_changed", "chat_changed_se", "tables"}}
	lines := map[string]map[int][]float64{}
	for cond, ms := range c {
		g := roundsPart.ReplaceAllString(cond, "-")
		if l := label(cond); l != cond {
			g = l
		}
		for _, m := range ms {
			mm, ok := m.Scalars["M"]
			if !ok || mm < 1 {
				continue // the questionnaire has no M
			}
			if lines[g] == nil {
				lines[g] = map[int][]float64{}
			}
			lines[g][int(mm)] = append(lines[g][int(mm)], m.Scalars["chat_changed"])
		}
	}
	for _, g := range sim.Keys(lines) {
		line := report.Line{Name: g}
		for _, mm := range slices.Sorted(maps.Keys(lines[g])) {
			st := sim.MeanSE(lines[g][mm])
			for len(line.Y) < mm {
				line.Y, line.SE = append(line.Y, math.NaN()), append(line.SE, math.NaN())
			}
			line.Y[mm-1], line.SE[mm-1] = st.Mean, st.SE
			rows = append(rows, []string{g, strconv.Itoa(mm), report.Decimal(st.Mean), report.Decimal(st.SE), strconv.Itoa(len(lines[g][mm]))})
		}
		chart.Lines = append(chart.Lines, line)
	}
	return report.Artifact{Name: "chatroom_change_vs_M", Title: "Conversational bias, change against M",
		About: "Share of chats with at least one unwarranted change (every message classified) against the number of messages M, mean and standard error over chats.", CSV: rows, Chart: chart}
}
