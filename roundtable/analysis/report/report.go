// Package report turns measured tables into the RoundTable paper's tables
// (CSV) and figures (line charts and the dialogue-act transition graph):
// Table 1, Figures 2 and 3, Tables 2, 10 and 11 (early stopping), Table 8
// (linguistic statistics), Table 9 and Figures 4 to 6 (dialogue acts, the
// transition graph over all rules and per rule). Build makes the
// artifacts from Tables; Write renders them as CSV, PNG (1680 pixels
// wide) and SVG with an index.md that says what each file shows. A figure
// that would say nothing the CSV does not (one point, one cell, no edge)
// is not drawn, and index.md says so.
//
// The package does no measuring: the caller replays each stored table,
// scores it with its task and annotates its messages, and hands over
// plain numbers (Table).
package report

// Message is one message of a table with its measures.
type Message struct {
	Round   int
	Speaker string
	Words   int
	FKGrade float64
	Acts    []string // nil when not labelled
}

// Table is one stored table, measured. Index r-1 of every per-round slice
// is round r, up to the rounds the table played.
type Table struct {
	ID   string
	Task string // "exchange", "recommendation", "text", ...
	Rule string
	// Votes says the table's protocol has a vote: only such tables have a
	// decision to wait for (Figure 2(b)).
	Votes bool
	// Decided says a decision was in force after the round: the one the
	// round's vote left, or the one in force before when the round had
	// no vote (a table that stopped in its proposal phase).
	Decided []bool
	// Perf is the task's performance per round, nil for tasks without one
	// (the text task). Exchange: U_r/U_max in [0, 1]; recommendation: the
	// absolute error of the rating in force.
	Perf []float64
	// Scalars are the task's table-level metrics (Table 1's columns).
	Scalars map[string]float64
	// Agreed says the round's vote passed a proposal; Proposed that
	// somebody made a new proposal in it.
	Agreed, Proposed []bool
	// InfoDiff is the round's information difference (NaN where none).
	InfoDiff []float64
	Messages []Message
	Failures int
}

// Played is the number of rounds the table played.
func (t Table) Played() int { return len(t.Decided) }

// Artifact is one output: a CSV table and, for figures, a chart or a
// graph to draw.
type Artifact struct {
	Name  string // file name without extension
	Title string // what it reproduces, e.g. "Table 1"
	About string // one sentence for index.md
	CSV   [][]string
	Chart *Chart
	Graph *Graph
	// Graphs, set instead of Graph, are drawn side by side.
	Graphs *GraphSet
	Heat   *Heat
	// Scatter, set instead of a chart, is drawn as a scatter plot.
	Scatter *Scatter
}

// Heat is a heat map: Values[i][j] is row i (bottom first) in column j,
// NaN for none, coloured over [Min, Max].
type Heat struct {
	Title, XLabel string
	Rows, Cols    []string
	Values        [][]float64
	Min, Max      float64
}

// Chart is a line chart over rounds.
type Chart struct {
	Title, XLabel, YLabel string
	Lines                 []Line
	// YMin and YMax fix the y axis when YMin < YMax; else it fits the data.
	YMin, YMax float64
}

// Line is one series; Y[r-1] is round r, NaN for no value.
type Line struct {
	Name string
	Y    []float64
	// SE, when set, is the standard error of each Y (a mean over runs),
	// drawn as error bars or a band; NaN for none.
	SE []float64
	// Marks draws the points alone, ringed, to mark events on the other
	// lines (an unwarranted change of stance, say).
	Marks bool
}

// Graph is a transition graph: nodes and weighted directed edges.
type Graph struct {
	Title string
	Nodes []string
	Edges []Edge
}

// GraphSet is graphs drawn side by side under one title (one per rule,
// say), each under its own.
type GraphSet struct {
	Title  string
	Graphs []*Graph
}

// Edge is a transition with its probability.
type Edge struct {
	From, To string
	P        float64
}

// Report is everything Build made, in index order, and what it skipped.
type Report struct {
	Artifacts []Artifact
	Skipped   []string // what the runs do not support, and why
}
