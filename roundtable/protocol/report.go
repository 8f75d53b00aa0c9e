package protocol

import (
	"context"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Analyst is a protocol whose ended tables `roundtable analyze` measures
// for a report: its own (Reporter), or the report of the protocol it is
// a baseline of.
type Analyst interface {
	// Joins names the protocol whose report the tables join: the
	// protocol's own name, or the one it is a baseline of.
	Joins() string
	// Analyze measures one ended table for the report, with the
	// parameters that label its condition.
	Analyze(ctx context.Context, t Table, in Instruments) (Measured, error)
}

// Reporter is a protocol that writes its paper's tables and figures from
// the runs of every protocol that joins its report.
type Reporter interface {
	// Report returns the tables and figures, and notes on what they
	// leave out.
	Report(ctx context.Context, runs *Runs) ([]report.Artifact, []string, error)
}

// StateKeeper is a Reporter whose report needs every table's state, not
// only its measures (the panel's quality and bias, measured across
// runs); Runs keep them only for it.
type StateKeeper interface {
	KeepsStates() bool
}

// Table is one ended table, replayed, and the condition it is a run of.
type Table struct {
	Events    []roundtable.Event
	State     *roundtable.State
	Condition string
}

// Instruments are what an Analyst may measure texts with: the stance
// classifier of a statement and its complement, and the store its
// annotations are kept in (a second analyze asks no model again).
type Instruments struct {
	Annotations roundtable.AnnotationStore
	Stance      func(statement, complement string) analysis.Instrument
	StanceModel string // names the stance classifier in outputs
	// Embedder, when set, is a model's embeddings for the texts a report
	// compares (the panel's drift, defensibility and platitude); nil is
	// the offline hashed TF-IDF.
	Embedder embed.Embedder
}

// Measured is one table's figures for its report.
type Measured struct {
	Measures sim.Measures
	Params   map[string]string // label its condition: the recorded parameters and more
	Missing  int               // texts a model failed on, left out (a second analyze retries them)
}

// Runs are the measured tables of one report, by condition.
type Runs struct {
	// Instruments are what the tables were measured with.
	Instruments Instruments
	Measures    Conditions
	Params      map[string]map[string]string   // the latest table's parameters
	First       map[string]*roundtable.State   // the table of lowest ID
	States      map[string][]*roundtable.State // every table, for a StateKeeper
	// Titles are the configured titles of the conditions' tables (live
	// tables have them; sim's do not), which figures show instead of IDs.
	Titles  map[string]string
	Missing int
}

// NewRuns returns empty runs.
func NewRuns() *Runs {
	return &Runs{Measures: Conditions{}, Params: map[string]map[string]string{}, First: map[string]*roundtable.State{},
		States: map[string][]*roundtable.State{}, Titles: map[string]string{}}
}

// Add adds a table's figures; keep keeps its state as well.
func (r *Runs) Add(t Table, m Measured, keep bool) {
	cond := t.Condition
	r.Measures[cond] = append(r.Measures[cond], m.Measures)
	r.Params[cond] = m.Params
	if f := r.First[cond]; f == nil || t.State.ID < f.ID {
		r.First[cond] = t.State
	}
	if keep {
		r.States[cond] = append(r.States[cond], t.State)
	}
	if title := t.State.Config.Title; title != "" {
		r.Titles[cond] = title
	}
	r.Missing += m.Missing
}

// Label names a condition in figures: its tables' title, or the
// condition (sim's table ID without the run number).
func (r *Runs) Label(cond string) string {
	if t := r.Titles[cond]; t != "" {
		return t
	}
	return cond
}

// Conditions are tables' measures by condition.
type Conditions map[string][]sim.Measures

// Has reports whether any measure of any condition has scalar key.
func (c Conditions) Has(key string) bool {
	for _, ms := range c {
		for _, m := range ms {
			if _, ok := m.Scalars[key]; ok {
				return true
			}
		}
	}
	return false
}

// Stat is the mean and SE of scalar key over cond's measures that have
// it (NaN when none do).
func (c Conditions) Stat(cond, key string) sim.Stat {
	var xs []float64
	for _, m := range c[cond] {
		if v, ok := m.Scalars[key]; ok {
			xs = append(xs, v)
		}
	}
	return sim.MeanSE(xs)
}

// Table is one row per condition with each scalar's mean and SE.
func (c Conditions) Table(name, title, about string, keys []string) report.Artifact {
	head := []string{"condition", "tables"}
	for _, k := range keys {
		head = append(head, k, k+"_se")
	}
	rows := [][]string{head}
	for _, cond := range sim.Keys(c) {
		row := []string{cond, strconv.Itoa(len(c[cond]))}
		for _, k := range keys {
			st := c.Stat(cond, k)
			row = append(row, report.Decimal(st.Mean), report.Decimal(st.SE))
		}
		rows = append(rows, row)
	}
	return report.Artifact{Name: name, Title: title, About: about, CSV: rows}
}

// Chart is the mean of series key per condition, as CSV and a chart with
// each mean's standard error over the condition's tables; label names a
// condition's line.
func (c Conditions) Chart(name, title, about, key, xlabel, ylabel string, label func(string) string) report.Artifact {
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
		line := report.Line{Name: label(cond)}
		for i, xs := range per {
			st := sim.MeanSE(xs)
			line.Y, line.SE = append(line.Y, st.Mean), append(line.SE, st.SE)
			rows = append(rows, []string{cond, strconv.Itoa(i + 1), report.Decimal(st.Mean), report.Decimal(st.SE)})
		}
		chart.Lines = append(chart.Lines, line)
	}
	return report.Artifact{Name: name, Title: title, About: about, CSV: rows, Chart: chart}
}

// WithColumns appends the recorded parameters keys of each row's
// condition (its first cell) to the row.
func WithColumns(rows [][]string, params map[string]map[string]string, keys []string) [][]string {
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
