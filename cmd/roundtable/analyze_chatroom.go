package main

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
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/store"
)

// chatroomStance classifies the private messages of chatroom tables
// (Conversational bias, section 3): the final opinion each agent but the
// last speaker reveals. Results are annotations beside the table's log,
// so a second analyze asks no model again.
type chatroomStance struct {
	db store.Backend
	// classifier returns the instrument for a table's statement and its
	// complement ("" for the opposite of the statement).
	classifier func(statement, complement string) analysis.Instrument
	model      string
	missing    int // private messages a model failed on
}

// chatroomStanceFor builds the classifier analyze --stance asks for.
func (a *App) chatroomStanceFor(ctx context.Context, cfg Config, f analyzeFlags, db store.Backend) (*chatroomStance, error) {
	switch f.stance {
	case "", "lexicon":
		in := analysis.Stance(stance.Lexicon{})
		return &chatroomStance{db: db, classifier: func(string, string) analysis.Instrument { return in }, model: stance.LexiconModel}, nil
	case "llm":
		af := f.annotate
		af.instrument = "stance"
		lb, err := a.labeler(ctx, cfg, af)
		if err != nil {
			return nil, fmt.Errorf("--stance: %w", err)
		}
		return &chatroomStance{db: db, model: lb.Model(), classifier: func(st, comp string) analysis.Instrument {
			return analysis.Stance(stance.Classifier{Labeler: lb, Statement: st, Complement: comp})
		}}, nil
	}
	return nil, usagef("--stance: %q is not lexicon or llm", f.stance)
}

// classify returns the classified stance of each author's private
// messages (the last one, if several).
func (c *chatroomStance) classify(ctx context.Context, events []roundtable.Event, s *roundtable.State) (map[string]analysis.StanceResult, error) {
	in := c.classifier(statementOf(s), s.Config.Protocol.Params["complement"])
	cache := analysis.Cache{Store: c.db}
	out := map[string]analysis.StanceResult{}
	for _, e := range events {
		m, ok := e.Data.(roundtable.MessagePosted)
		if !ok || !m.Private || m.Text == "" {
			continue
		}
		a, err := cache.Annotate(ctx, s.ID, e.Seq, in, analysis.Item{Text: m.Text})
		if err != nil {
			return nil, err
		}
		var r analysis.StanceResult
		if a.Missing != "" || json.Unmarshal(a.Result, &r) != nil {
			c.missing++
			continue
		}
		out[e.Actor] = r
	}
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

// measure is the chatroom's figures with the stance classified from the
// private messages: an agent changed when its private message expresses
// an opinion at a level other than the assigned one. The self-reported
// changes stay beside them as reported_*.
func (c *chatroomStance) measure(ctx context.Context, events []roundtable.Event, s *roundtable.State) (sim.Measures, error) {
	m := measureChatroom(nil, s)
	sc := m.Scalars
	sc["reported_changed_agents"], sc["reported_chat_changed"] = sc["changed_agents"], sc["chat_changed"]
	res, err := c.classify(ctx, events, s)
	if err != nil {
		return m, err
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
	return m, nil
}

// chatroomArtifacts: the share of chats with an unwarranted change and the
// agents that changed per condition, with the Likert questionnaire's
// baseline, and the share against M.
func chatroomArtifacts(c map[string][]sim.Measures, params map[string]map[string]string) []report.Artifact {
	keys := []string{"chat_changed", "changed_agents", "classified_agents", "no_opinion_agents", "reported_chat_changed", "reported_changed_agents",
		"M", "messages", "private_messages"}
	t := scalarTable("chatroom_changes", "Conversational bias, opinion change",
		"Per condition (stance assignment and M messages): share of chats with an unwarranted change (chat_changed) and agents that changed, "+
			"from the stance classifier over the private messages (stance_from names it); reported_* are the agents' own final self-reports. "+
			"Questionnaire rows are the one-shot Likert baseline (self-reports, no conversation).", c, keys)
	t.CSV = withColumns(t.CSV, params, []string{"stance_from"})
	return []report.Artifact{t, changeAgainstM(c)}
}

// rounds is the -rN part of a condition's name, which changeAgainstM
// groups over.
var roundsPart = regexp.MustCompile(`-r\d+-`)

// changeAgainstM plots the share of chats with a change against M, one
// line per condition apart from M.
func changeAgainstM(c map[string][]sim.Measures) report.Artifact {
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
		ms := slices.Sorted(maps.Keys(lines[g]))
		for _, mm := range ms {
			st := sim.MeanSE(lines[g][mm])
			for len(line.Y) < mm {
				line.Y = append(line.Y, math.NaN())
			}
			line.Y[mm-1] = st.Mean
			rows = append(rows, []string{g, strconv.Itoa(mm), formatFloat(st.Mean), formatFloat(st.SE), strconv.Itoa(len(lines[g][mm]))})
		}
		chart.Lines = append(chart.Lines, line)
	}
	return report.Artifact{Name: "chatroom_change_vs_M", Title: "Conversational bias, change against M",
		About: "Share of chats with at least one unwarranted change (classified private messages) against the number of messages M.", CSV: rows, Chart: chart}
}

// measureProtocol measures a protocol table, a chatroom through its
// classified private messages, and returns the parameters its condition
// is labelled with.
func measureProtocol(ctx context.Context, events []roundtable.Event, s *roundtable.State, chat *chatroomStance) (sim.Measures, map[string]string, error) {
	pr := s.Config.Protocol
	params := map[string]string{}
	for k, v := range pr.Params {
		params[k] = v
	}
	switch {
	case pr.Name == roundtable.ProtocolChatroom && chat != nil:
		params["stance_from"] = "classifier over the private messages: " + chat.model
		m, err := chat.measure(ctx, events, s)
		return m, params, err
	case pr.Name == roundtable.ProtocolQuestionnaire:
		params["stance_from"] = "Likert questionnaire (self-report)"
	case pr.Name == roundtable.ProtocolChatroom:
		params["stance_from"] = "self-report"
	}
	return protocolMeasure(reportedAs(pr.Name))(nil, s), params, nil
}
