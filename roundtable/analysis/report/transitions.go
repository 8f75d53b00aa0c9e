package report

import (
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
)

// dialogue is t as the transition graph sees it: its labelled messages,
// everyone who spoke at the table as a participant (each holds Start
// before round 1 and End after the last), and the rounds it played.
func dialogue(t Table) acts.Dialogue {
	d := acts.Dialogue{Rounds: t.Played(), Messages: tagged(t.Messages), Speakers: []string{}}
	for _, m := range t.Messages {
		if !slices.Contains(d.Speakers, m.Speaker) {
			d.Speakers = append(d.Speakers, m.Speaker)
		}
	}
	return d
}

// TransitionGraph adds up the dialogue-act transition graphs of ts'
// labelled tables, counted by c: Eq. 1 sums numerators and denominators
// over tables and rounds before dividing.
func TransitionGraph(ts []Table, c acts.Counting) acts.Graph {
	g := acts.NewGraph()
	for _, t := range ts {
		if hasActs(t.Messages) {
			g.Add(c.Transitions(dialogue(t)))
		}
	}
	return g
}

// TransitionsByRule is the transition graph of each rule's tables
// (Figures 5 and 6 of the paper draw one per rule): the rules in the
// paper's order, and each rule's graph. Rules without labelled tables are
// left out.
func TransitionsByRule(ts []Table, c acts.Counting) ([]string, map[string]acts.Graph) {
	rules, groups := byRule(ts)
	graphs := map[string]acts.Graph{}
	var kept []string
	for _, rule := range rules {
		if slices.ContainsFunc(groups[rule], func(t Table) bool { return hasActs(t.Messages) }) {
			kept = append(kept, rule)
			graphs[rule] = TransitionGraph(groups[rule], c)
		}
	}
	return kept, graphs
}

// nodes are Start, the acts in the order of docs/protocol.md#dialogue-acts, then End.
func nodes() []string { return append(append([]string{acts.Start}, acts.All()...), acts.End) }

// transitionRows are the CSV rows of g's transitions, each prefixed by
// rule.
func transitionRows(rule string, g acts.Graph) [][]string {
	var rows [][]string
	for _, a := range nodes() {
		for _, b := range nodes() {
			if n := g.Next[a][b]; n > 0 {
				rows = append(rows, []string{rule, a, b, itoa(g.Count[a]), itoa(n), Num(g.P(a, b))})
			}
		}
	}
	return rows
}

var transitionHead = []string{"rule", "from", "to", "from_count", "count", "p"}

// countingAbout says how c counts, for index.md.
func countingAbout(c acts.Counting) string {
	if c == acts.Occurrences {
		return "p(A->B) = occurrences of A (an act of one message) in round r-1 followed by B from someone else in round r, over occurrences of A; Start and End once per table (--transitions occurrences)"
	}
	return "p(A->B) = sum over tables and rounds of the ordered pairs (i, j != i) with A in DA(i, r-1) and B in DA(j, r), over the sum of the participants i with A in DA(i, r-1) (Eq. 1; every participant holds Start before round 1 and End after the last, so p may exceed 1)"
}

// figure4 is Figure 4: the dialogue-act transition graph of each task
// (all rules), drawn with each node's most probable outgoing edge (self
// loops excluded, as in the paper), and every transition per task and
// rule in its CSV; then Figures 5 and 6, the graph of each rule.
func figure4(ts []Table, c acts.Counting) []Artifact {
	var out []Artifact
	for _, task := range tasks(ts) {
		tt := ofTask(ts, task)
		rows := [][]string{transitionHead}
		rules, graphs := TransitionsByRule(tt, c)
		for _, rule := range rules {
			rows = append(rows, transitionRows(rule, graphs[rule])...)
		}
		rows = append(rows, transitionRows("all", TransitionGraph(tt, c))...)
		out = append(out, Artifact{Name: "figure4_transitions_" + task, Title: "Figure 4",
			About: "Dialogue-act transition graph of the " + task + " tables: " + countingAbout(c) + ". The CSV lists every transition per rule and for all rules; the figure draws each act's most probable outgoing edge (self-loops excluded) over all rules.",
			CSV:   rows, Graph: strongest(TransitionGraph(tt, c), "Figure 4: dialogue-act transitions ("+task+")")})
		if len(rules) > 1 {
			out = append(out, perRuleGraphs(task, rules, graphs))
		}
	}
	return out
}

// perRuleGraphs is Figure 5 (exchange) or 6 (recommendation): one
// transition graph per rule, side by side.
func perRuleGraphs(task string, rules []string, graphs map[string]acts.Graph) Artifact {
	title, name := "Figures 5 and 6 (per rule)", "transitions_by_rule_"+task
	switch task {
	case "exchange":
		title, name = "Figure 5", "figure5_transitions_by_rule_exchange"
	case "recommendation":
		title, name = "Figure 6", "figure6_transitions_by_rule_recommendation"
	}
	set := &GraphSet{Title: title + ": dialogue-act transitions per rule (" + task + ")"}
	a := Artifact{Name: name, Title: title, Graphs: set,
		About: "Dialogue-act transition graph of the " + task + " tables per rule, each act's most probable outgoing edge (self-loops excluded); the CSV lists the edges drawn, every transition is in figure4_transitions_" + task + ".csv.",
		CSV:   [][]string{{"rule", "from", "to", "p"}}}
	for _, rule := range rules {
		g := strongest(graphs[rule], rule)
		for _, e := range g.Edges {
			a.CSV = append(a.CSV, []string{rule, e.From, e.To, Num(e.P)})
		}
		set.Graphs = append(set.Graphs, g)
	}
	return a
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
