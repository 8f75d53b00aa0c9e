package report

import (
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
)

// graphOf adds up the transition graphs of ts' tables.
func graphOf(ts []Table) acts.Graph {
	g := acts.Transitions(nil)
	for _, t := range ts {
		if hasActs(t.Messages) {
			g.Add(acts.Transitions(tagged(t.Messages)))
		}
	}
	return g
}

// nodes are Start, the acts in the order of docs/protocol.md#dialogue-acts, then End.
func nodes() []string { return append(append([]string{acts.Start}, acts.All()...), acts.End) }

// figure4 is Figure 4: the dialogue-act transition graph of each task
// (all rules), drawn with each node's most probable outgoing edge (self
// loops excluded, as in the paper), and every transition probability per
// task and rule in its CSV.
func figure4(ts []Table) []Artifact {
	var out []Artifact
	for _, task := range tasks(ts) {
		tt := ofTask(ts, task)
		rows := [][]string{{"rule", "from", "to", "from_count", "count", "p"}}
		rules, groups := byRule(tt)
		for _, rule := range append(rules, "all") {
			g := groups[rule]
			if rule == "all" {
				g = tt
			}
			gr := graphOf(g)
			for _, a := range nodes() {
				for _, b := range nodes() {
					if n := gr.Next[a][b]; n > 0 {
						rows = append(rows, []string{rule, a, b, itoa(gr.Count[a]), itoa(n), Num(gr.P(a, b))})
					}
				}
			}
		}
		out = append(out, Artifact{Name: "figure4_transitions_" + task, Title: "Figure 4",
			About: "Dialogue-act transition graph of the " + task + " tables: p(A->B) = occurrences of A in round r-1 by i followed by B in round r by someone else, over occurrences of A (Start before round 1, End after the last). The CSV lists every transition per rule and for all rules; the figure draws each act's most probable outgoing edge (self-loops excluded) over all rules.",
			CSV:   rows, Graph: strongest(graphOf(tt), "Figure 4: dialogue-act transitions ("+task+")")})
	}
	return out
}

// strongest keeps each node's most probable outgoing edge to another
// node (the first in nodes() order among equals).
func strongest(g acts.Graph, title string) *Graph {
	out := &Graph{Title: title}
	for _, a := range nodes() {
		if g.Count[a] == 0 && a != acts.End {
			continue
		}
		out.Nodes = append(out.Nodes, a)
		best := Edge{From: a}
		for _, b := range nodes() {
			if p := g.P(a, b); b != a && p > best.P {
				best.To, best.P = b, p
			}
		}
		if best.To != "" {
			out.Edges = append(out.Edges, best)
		}
	}
	return out
}

// tasks are the tasks whose tables have labelled acts, sorted.
func tasks(ts []Table) []string {
	var out []string
	for _, t := range ts {
		if hasActs(t.Messages) && !slices.Contains(out, t.Task) {
			out = append(out, t.Task)
		}
	}
	slices.Sort(out)
	return out
}
