package chatroom

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Joins implements protocol.Analyst: the chatroom's own report.
func (definition) Joins() string { return Name }

// Analyze implements protocol.Analyst: the chatroom's figures with the
// stance classified from the private messages (Conversational bias,
// section 3), the final opinion each agent but the last speaker reveals:
// an agent changed when its private message expresses an opinion at a
// level other than the assigned one. The self-reported changes stay
// beside them as reported_*. Without a classifier the self-reports count.
func (definition) Analyze(ctx context.Context, t protocol.Table, in protocol.Instruments) (protocol.Measured, error) {
	s := t.State
	params := protocol.Params(s)
	if in.Stance == nil {
		params["stance_from"] = "self-report"
		return protocol.Measured{Measures: Measure(s), Params: params}, nil
	}
	params["stance_from"] = "classifier over the private messages: " + in.StanceModel
	m := Measure(s)
	sc := m.Scalars
	sc["reported_changed_agents"], sc["reported_chat_changed"] = sc["changed_agents"], sc["chat_changed"]
	res, missing, err := classify(ctx, t, in)
	out := protocol.Measured{Measures: m, Params: params, Missing: missing}
	if err != nil {
		return out, err
	}
	changed, silent := 0.0, 0.0
	for id, r := range res {
		p, _ := s.Participant(id)
		assigned, _ := opinion.ParseStance(p.Stance)
		switch {
		case !r.Presence:
			silent++
		case float64(r.Level) != opinion.Round(assigned):
			changed++
		}
	}
	sc["changed_agents"], sc["chat_changed"] = changed, math.Min(changed, 1)
	sc["classified_agents"], sc["no_opinion_agents"] = float64(len(res)), silent
	sc["M"] = sc["messages"]
	return out, nil
}

// classify returns the classified stance of each author's private
// messages (the last one, if several), kept as annotations beside the
// table's log; missing counts those a model failed on.
func classify(ctx context.Context, t protocol.Table, in protocol.Instruments) (map[string]analysis.StanceResult, int, error) {
	s := t.State
	inst := in.Stance(statementOf(s), s.Config.Protocol.Params["complement"])
	cache := analysis.Cache{Store: in.Annotations}
	out := map[string]analysis.StanceResult{}
	missing := 0
	for _, e := range t.Events {
		m, ok := e.Data.(roundtable.MessagePosted)
		if !ok || !m.Private || m.Text == "" {
			continue
		}
		a, err := cache.Annotate(ctx, s.ID, e.Seq, inst, analysis.Item{Text: m.Text})
		if err != nil {
			return nil, missing, err
		}
		var r analysis.StanceResult
		if a.Missing != "" || json.Unmarshal(a.Result, &r) != nil {
			missing++
			continue
		}
		out[e.Actor] = r
	}
	return out, missing, nil
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
// unwarranted change and the agents that changed per condition, with the
// Likert questionnaire's baseline, and the share against M.
func (definition) Report(_ context.Context, runs *protocol.Runs) ([]report.Artifact, []string, error) {
	c := runs.Measures
	keys := []string{"chat_changed", "changed_agents", "classified_agents", "no_opinion_agents", "reported_chat_changed", "reported_changed_agents",
		"M", "messages", "private_messages"}
	t := c.Table("chatroom_changes", "Conversational bias, opinion change",
		"Per condition (stance assignment and M messages): share of chats with an unwarranted change (chat_changed) and agents that changed, "+
			"from the stance classifier over the private messages (stance_from names it); reported_* are the agents' own final self-reports. "+
			"Questionnaire rows are the one-shot Likert baseline (self-reports, no conversation).", keys)
	t.CSV = protocol.WithColumns(t.CSV, runs.Params, []string{"stance_from"})
	var notes []string
	if runs.Missing > 0 {
		notes = append(notes, fmt.Sprintf("%d private messages have no stance (a model failed; they are left out); run analyze again to retry them.", runs.Missing))
	}
	return []report.Artifact{t, changeAgainstM(c)}, notes, nil
}

// roundsPart is the -rN part of a condition's name, which changeAgainstM
// groups over.
var roundsPart = regexp.MustCompile(`-r\d+-`)

// changeAgainstM plots the share of chats with a change against M, one
// line per condition apart from M.
func changeAgainstM(c protocol.Conditions) report.Artifact {
	chart := &report.Chart{Title: "Conversational bias: share of chats with an unwarranted change against M", XLabel: "M (messages)", YLabel: "share of chats"}
	rows := [][]string{{"group", "M", "chat_changed", "chat_changed_se", "tables"}}
	lines := map[string]map[int][]float64{}
	for cond, ms := range c {
		g := roundsPart.ReplaceAllString(cond, "-")
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
				line.Y = append(line.Y, math.NaN())
			}
			line.Y[mm-1] = st.Mean
			rows = append(rows, []string{g, strconv.Itoa(mm), report.Decimal(st.Mean), report.Decimal(st.SE), strconv.Itoa(len(lines[g][mm]))})
		}
		chart.Lines = append(chart.Lines, line)
	}
	return report.Artifact{Name: "chatroom_change_vs_M", Title: "Conversational bias, change against M",
		About: "Share of chats with at least one unwarranted change (classified private messages) against the number of messages M.", CSV: rows, Chart: chart}
}
