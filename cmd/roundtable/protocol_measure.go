package main

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// protocolUnits say what each figure of summary.json is measured in.
var protocolUnits = map[string]map[string]string{
	dyads.Name: {
		"B": "mean opinion after each step, on -2..2", "D": "standard deviation of opinions after each step, on -2..2",
		"B_final": "opinion on -2..2", "D_final": "opinion on -2..2 (population standard deviation)",
		"B_rounded": "opinion level on -2..2, opinions rounded to levels first", "D_rounded": "opinion level on -2..2, opinions rounded to levels first",
		"B_initial": "opinion on -2..2", "D_initial": "opinion on -2..2", "changed_agents": "agents",
	},
	chatroom.Name: {
		"changed_agents": "agents whose final self-reported stance differs from the assigned one",
		"chat_changed":   "1 if any agent changed, else 0 (its mean over runs is the share of chats)",
		"messages":       "public messages", "private_messages": "private messages",
	},
	panel.Name: {
		"rounds": "rounds until the stop rule", "converged": "1 if every sentiment change fell below the tolerance, else 0",
		"S/*": "mean sentiment of the judges on -1..1 after each round (a panel that stopped keeps its last)", "borda/*": "Borda points (top item n, last 1) summed over judges",
		"gut/*": "Borda points on conviction summed over judges", "tier/*": "mean valence tier (1 best, 3 worst)",
	},
}

// unitsFor are the units of a protocol's figures; the questionnaire has
// the chatroom's.
func unitsFor(name string) map[string]string {
	if name == questionnaire.Name {
		name = chatroom.Name
	}
	return protocolUnits[name]
}

func protocolMeasure(name string) sim.Measure {
	switch name {
	case dyads.Name:
		return measureDyads
	case chatroom.Name, questionnaire.Name:
		return measureChatroom
	}
	return measurePanel
}

// opinions follows every participant's reported opinion (its first value)
// from its stance: one row per round, one column per seat. The answers of
// agents with no opinion model (the Facilitator) are no opinions: a seat
// without stance or report stays unknown (NaN).
func opinions(s *roundtable.State) (start []float64, rows [][]float64) {
	cur := make([]float64, len(s.Participants))
	for i, p := range s.Participants {
		cur[i], _ = opinion.ParseStance(p.Stance)
		if p.Stance == "" {
			cur[i] = math.NaN() // no initial belief (the no-role-play control): unknown until the first report
		}
	}
	start = append([]float64(nil), cur...)
	for _, r := range s.Rounds {
		for _, a := range r.Surveys {
			if i := s.Index(a.By); i >= 0 && len(a.Values) > 0 && !roundtable.IsNoOpinion(a.Reason) {
				cur[i] = a.Values[0]
			}
		}
		rows = append(rows, append([]float64(nil), cur...))
	}
	return start, rows
}

func measureDyads(_ roundtable.Task, s *roundtable.State) sim.Measures {
	start, rows := opinions(s)
	final := start
	if len(rows) > 0 {
		final = rows[len(rows)-1]
	}
	b, d := make([]float64, len(rows)), make([]float64, len(rows))
	for i, row := range rows {
		b[i], d[i] = opinion.Bias(known(row)), opinion.Diversity(known(row))
	}
	var rounded []float64
	changed := 0.0
	for i, x := range final {
		if !math.IsNaN(x) {
			rounded = append(rounded, opinion.Round(x))
		}
		if x != start[i] && !(math.IsNaN(x) && math.IsNaN(start[i])) {
			changed++
		}
	}
	return sim.Measures{Series: map[string][]float64{"B": b, "D": d}, Scalars: map[string]float64{
		"B_final": opinion.Bias(known(final)), "D_final": opinion.Diversity(known(final)),
		"B_rounded": opinion.Bias(rounded), "D_rounded": opinion.Diversity(rounded),
		"B_initial": opinion.Bias(known(start)), "D_initial": opinion.Diversity(known(start)), "changed_agents": changed,
	}}
}

func measureChatroom(_ roundtable.Task, s *roundtable.State) sim.Measures {
	start, rows := opinions(s)
	changed := 0.0
	if len(rows) > 0 {
		for i, x := range rows[len(rows)-1] {
			if !math.IsNaN(x) && !math.IsNaN(start[i]) && opinion.Round(x) != opinion.Round(start[i]) {
				changed++
			}
		}
	}
	pub, priv := 0.0, 0.0
	for _, r := range s.Rounds {
		for _, m := range r.Messages {
			if m.Private {
				priv++
			} else {
				pub++
			}
		}
	}
	return sim.Measures{Scalars: map[string]float64{"changed_agents": changed, "chat_changed": math.Min(changed, 1),
		"messages": pub, "private_messages": priv}}
}

func measurePanel(_ roundtable.Task, s *roundtable.State) sim.Measures {
	items := s.Config.Protocol.Round[1].Scale.Items
	m := sim.Measures{Series: map[string][]float64{}, Scalars: map[string]float64{
		"rounds": float64(len(s.Rounds)), "converged": boolf(s.EndReason == roundtable.EndConvergence)}}
	traj := map[string][][]float64{} // judge -> item -> sentiments
	final := map[string][]float64{}
	for _, r := range s.Rounds {
		sums, n := make([]float64, len(items)), 0
		for _, a := range r.Surveys {
			if roundtable.IsNoOpinion(a.Reason) {
				continue // the Facilitator's middle of the scale is no view
			}
			n++
			final[a.By] = a.Values
			if traj[a.By] == nil {
				traj[a.By] = make([][]float64, len(items))
			}
			for i, v := range a.Values {
				sums[i] += v
				traj[a.By][i] = append(traj[a.By][i], v)
			}
		}
		for i, it := range items {
			m.Series["S/"+it] = append(m.Series["S/"+it], sums[i]/math.Max(1, float64(n)))
		}
	}
	for _, it := range items { // a panel that stopped keeps its last sentiment
		ser := m.Series["S/"+it]
		for len(ser) > 0 && len(ser) < s.Config.Rounds {
			ser = append(ser, ser[len(ser)-1])
		}
		m.Series["S/"+it] = ser
	}
	gut := map[string][]float64{}
	for judge, ts := range traj {
		for _, t := range ts {
			gut[judge] = append(gut[judge], opinion.Conviction(t))
		}
	}
	borda, gutPts := opinion.Borda(final, len(items)), opinion.Borda(gut, len(items))
	for i, it := range items {
		m.Scalars["borda/"+it], m.Scalars["gut/"+it] = borda[i], gutPts[i]
		tiers := 0.0
		for _, v := range final {
			tiers += float64(opinion.Tier(v[i]))
		}
		m.Scalars["tier/"+it] = tiers / math.Max(1, float64(len(final)))
	}
	return m
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// printProtocol prints the paper's headline figures of a protocol run.
func printProtocol(w io.Writer, rules []vote.Rule, rep simReport) {
	for _, key := range resultKeys(rules, rep) {
		res := rep.Rules[key]
		sc := res.Summary.Scalars
		fmt.Fprintf(w, "%s protocol, %d agents, up to %d rounds, %d runs%s (mean, standard error in parentheses)\n", rep.Protocol, rep.Agents, rep.Rounds, rep.Runs, cellOf(key))
		if len(rep.Params) > 0 {
			fmt.Fprintf(w, "condition: %s\n", paramsText(rep.Params))
		}
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
		for _, k := range sim.Keys(sc) {
			if strings.HasPrefix(k, "format_errors") {
				continue
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t\n", k, formatStat(sc[k]), unitOf(rep.Units, k))
		}
		_ = tw.Flush()
	}
}

func unitOf(units map[string]string, key string) string {
	if u, ok := units[key]; ok {
		return u
	}
	if i := strings.Index(key, "/"); i >= 0 {
		return units[key[:i+1]+"*"]
	}
	return ""
}

// withUnits adds an experiment's units to the common ones.
func withUnits(common, own map[string]string) map[string]string {
	out := make(map[string]string, len(common)+len(own))
	for k, v := range common {
		out[k] = v
	}
	for k, v := range own {
		out[k] = v
	}
	return out
}
