package main

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/store"
)

// runSuffix is the run number sim appends to a table ID: tables whose IDs
// differ only in it are runs of one condition.
var runSuffix = regexp.MustCompile(`-\d{4}$`)

// protocolRuns are the measures of the ended protocol tables, by protocol
// and condition.
type protocolRuns map[string]map[string][]sim.Measures

// protocolArtifacts are the other papers' tables and figures from the
// protocol tables among ids (panel, chatroom, dyads), as CSV and charts,
// and the ended panel tables by condition (the ID without its run number),
// replayed once here for panelReports.
func protocolArtifacts(ctx context.Context, db store.Backend, ids []string, chat *chatroomStance) ([]report.Artifact, map[string][]panelRun, error) {
	runs := protocolRuns{}
	panels := map[string][]panelRun{}
	params := map[string]map[string]string{} // condition -> the protocol's recorded parameters
	firsts := map[string]*roundtable.State{} // condition -> its first table
	for _, id := range ids {
		events, err := db.Load(ctx, id)
		if err != nil {
			return nil, nil, fmt.Errorf("load %s: %w", id, err)
		}
		s, err := roundtable.Replay(events)
		if err != nil || s.Status != roundtable.StatusEnded || s.Config.Protocol == nil {
			continue // the RoundTable report says what it left out
		}
		name := reportedAs(s.Config.Protocol.Name)
		if name == roundtable.ProtocolRoundTable {
			continue // RoundTable's schedule with a survey (self-reports): the RoundTable report's
		}
		if runs[name] == nil {
			runs[name] = map[string][]sim.Measures{}
		}
		cond := runSuffix.ReplaceAllString(id, "")
		m, p, err := measureProtocol(ctx, events, s, chat)
		if err != nil {
			return nil, nil, fmt.Errorf("measure %s: %w", id, err)
		}
		if name == roundtable.ProtocolPanel {
			pr := s.Config.Protocol
			panels[cond] = append(panels[cond], panelRun{s, pr.Param("alpha", roundtable.DefaultPanelAlpha), pr.Stop.Tolerance})
		}
		runs[name][cond] = append(runs[name][cond], m)
		params[cond] = p
		if f := firsts[cond]; f == nil || s.ID < f.ID {
			firsts[cond] = s
		}
	}
	var out []report.Artifact
	if c := runs[roundtable.ProtocolDyads]; c != nil {
		out = append(out, dyadsArtifacts(c, params, firsts)...)
	}
	if c := runs[roundtable.ProtocolChatroom]; c != nil {
		out = append(out, chatroomArtifacts(c, params)...)
	}
	if c := runs[roundtable.ProtocolPanel]; c != nil {
		out = append(out, panelArtifacts(c)...)
	}
	return out, panels, nil
}

// reportedAs is the protocol whose figures a protocol's tables join: the
// questionnaire is the chatroom's baseline, in its table.
func reportedAs(name string) string {
	if name == roundtable.ProtocolQuestionnaire {
		return roundtable.ProtocolChatroom
	}
	return name
}

// scalarTable is one row per condition with each scalar's mean and SE.
func scalarTable(name, title, about string, c map[string][]sim.Measures, keys []string) report.Artifact {
	head := []string{"condition", "tables"}
	for _, k := range keys {
		head = append(head, k, k+"_se")
	}
	rows := [][]string{head}
	for _, cond := range sim.Keys(c) {
		row := []string{cond, strconv.Itoa(len(c[cond]))}
		for _, k := range keys {
			st := scalarStat(c[cond], k)
			row = append(row, formatFloat(st.Mean), formatFloat(st.SE))
		}
		rows = append(rows, row)
	}
	return report.Artifact{Name: name, Title: title, About: about, CSV: rows}
}

// scalarStat is the mean and SE of one scalar over the measures that
// have it (NaN when none do).
func scalarStat(ms []sim.Measures, key string) sim.Stat {
	var xs []float64
	for _, m := range ms {
		if v, ok := m.Scalars[key]; ok {
			xs = append(xs, v)
		}
	}
	return sim.MeanSE(xs)
}

// seriesChart is the mean of one series per condition, as CSV and a chart.
func seriesChart(name, title, about string, c map[string][]sim.Measures, key, xlabel, ylabel string) report.Artifact {
	chart := &report.Chart{Title: title, XLabel: xlabel, YLabel: ylabel}
	rows := [][]string{{"condition", xlabel, key, key + "_se"}}
	for _, cond := range sim.Keys(c) {
		var per [][]float64
		for _, m := range c[cond] {
			for i, v := range m.Series[key] {
				for len(per) <= i {
					per = append(per, nil)
				}
				per[i] = append(per[i], v)
			}
		}
		line := report.Line{Name: cond}
		for i, xs := range per {
			st := sim.MeanSE(xs)
			line.Y = append(line.Y, st.Mean)
			rows = append(rows, []string{cond, strconv.Itoa(i + 1), formatFloat(st.Mean), formatFloat(st.SE)})
		}
		chart.Lines = append(chart.Lines, line)
	}
	return report.Artifact{Name: name, Title: title, About: about, CSV: rows, Chart: chart}
}

// panelArtifacts: the rankings per condition and the mean sentiment per
// item and round.
func panelArtifacts(c map[string][]sim.Measures) []report.Artifact {
	items := map[string]bool{}
	for _, ms := range c {
		for _, m := range ms {
			for k := range m.Series {
				items[k] = true
			}
		}
	}
	keys := []string{"rounds", "converged"}
	series := sim.Keys(items)
	for _, s := range series {
		it := s[len("S/"):]
		keys = append(keys, "borda/"+it, "tier/"+it, "gut/"+it)
	}
	out := []report.Artifact{scalarTable("panel_rankings", "Sentimental Agents, decisions",
		"Per condition: rounds to the stop rule, share converged, and per item the Borda points, mean valence tier and gut-feeling (conviction) Borda points.",
		c, keys)}
	for _, s := range series {
		name := "panel_sentiment_" + sanitize(s[len("S/"):])
		out = append(out, seriesChart(name, "Sentimental Agents, sentiment of "+s[len("S/"):],
			"Mean sentiment of the judges on -1..1 after each round, per condition.", c, s, "round", "sentiment"))
	}
	sort.SliceStable(out[1:], func(i, j int) bool { return out[1+i].Name < out[1+j].Name })
	return out
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

func sanitize(s string) string { return unsafeName.ReplaceAllString(s, "_") }

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
