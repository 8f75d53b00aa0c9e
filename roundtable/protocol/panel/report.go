package panel

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Joins implements protocol.Analyst: the panel's own report.
func (definition) Joins() string { return Name }

// Analyze implements protocol.Analyst: the table's sentiments and
// rankings, labelled with its recorded parameters.
func (definition) Analyze(_ context.Context, t protocol.Table, _ protocol.Instruments) (protocol.Measured, error) {
	return protocol.Measured{Measures: measure(t.State), Params: protocol.Params(t.State)}, nil
}

// KeepsStates implements protocol.StateKeeper: the quality metrics and
// the bias regressions read every table.
func (definition) KeepsStates() bool { return true }

// Report implements protocol.Reporter: the rankings and sentiments per
// condition, then the quality metrics and the cognitive-bias regressions.
func (definition) Report(ctx context.Context, runs *protocol.Runs) ([]report.Artifact, []string, error) {
	out := panelArtifacts(runs.Measures, runs.Label)
	more, err := panelReports(ctx, runs.States, runs.Instruments.Embedder)
	return append(out, more...), nil, err
}

// cellOf is the grid cell a panel table ran in.
func cellOf(s *roundtable.State) protocol.Cell {
	return protocol.CellOf(s.Config.Protocol, sentiment.DefaultAlpha)
}

// panelArtifacts: the rankings per condition and the mean sentiment per
// item and round.
func panelArtifacts(c protocol.Conditions, label func(string) string) []report.Artifact {
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
	out := []report.Artifact{c.Table("panel_rankings", "Sentimental Agents, decisions",
		"Per condition: rounds to the stop rule, share converged, and per item the Borda points, mean valence tier and gut-feeling (conviction) Borda points.",
		keys)}
	for _, s := range series {
		name := "panel_sentiment_" + report.FileName(s[len("S/"):])
		out = append(out, c.Chart(name, "Sentimental Agents, sentiment of "+s[len("S/"):],
			"Mean sentiment of the judges on -1..1 after each round, per condition (mean and standard error over tables).", s, "round", "sentiment", label))
	}
	sort.SliceStable(out[1:], func(i, j int) bool { return out[1+i].Name < out[1+j].Name })
	return out
}

// panelReports are the evaluation panel's quality metrics (with platitude
// across runs; texts compared by emb when it is set, a model's
// embeddings, else hashed TF-IDF), its judges' Tables 4 to 9 and its
// cognitive-bias regressions per grid cell, from the ended panel tables
// by condition.
func panelReports(ctx context.Context, runs map[string][]*roundtable.State, emb embed.Embedder) ([]report.Artifact, error) {
	if len(runs) == 0 {
		return nil, nil
	}
	m, err := NewMeter(nil)
	if err != nil {
		return nil, err
	}
	if emb != nil {
		m = m.WithModel(emb)
	}
	quality, err := panelQuality(ctx, m, runs)
	if err != nil {
		return nil, err
	}
	return append(append(quality, judgementArtifacts(runs)...), panelBias(runs)...), nil
}

// panelQuality is one row per condition: the run metrics' mean and SE and
// the platitude across its runs; the platitude per judge and item; and
// nuance per item and drift per judge.
func panelQuality(ctx context.Context, m *Meter, runs map[string][]*roundtable.State) ([]report.Artifact, error) {
	metrics := []string{"nuance", "drift", "defensibility", "supported"}
	head := []string{"condition", "tables", "alpha", "tolerance"}
	for _, k := range metrics {
		head = append(head, k, k+"_se")
	}
	rows := [][]string{append(head, "platitude", "platitude_pairs")}
	platRows := [][]string{{"condition", "judge", "item", "runs", "platitude"}}
	byRows := [][]string{{"condition", "metric", "of", "tables", "mean", "se"}}
	for _, cond := range sim.Keys(runs) {
		rs := runs[cond]
		vals := map[string][]float64{}
		said := map[string]map[string][]string{} // judge -> item -> one text per run
		for _, r := range rs {
			q, err := m.Run(ctx, r)
			if err != nil {
				return nil, fmt.Errorf("measure %s: %w", r.ID, err)
			}
			vals["nuance"] = append(vals["nuance"], q.Nuance)
			for it, n := range q.NuanceByItem {
				vals["nuance/"+it] = append(vals["nuance/"+it], n)
			}
			for judge, d := range q.DriftBy {
				vals["drift/"+judge] = append(vals["drift/"+judge], d)
			}
			if q.HasDrift {
				vals["drift"] = append(vals["drift"], q.Drift)
			}
			if q.Defended > 0 {
				vals["defensibility"], vals["supported"] = append(vals["defensibility"], q.Defensibility), append(vals["supported"], q.Supported)
			}
			addStatements(said, m.Statements(r))
		}
		c := cellOf(rs[0])
		row := []string{cond, strconv.Itoa(len(rs)), report.Decimal(c.Alpha), strconv.FormatFloat(c.Tolerance, 'g', -1, 64)}
		for _, k := range metrics {
			st := sim.MeanSE(vals[k])
			row = append(row, report.Decimal(st.Mean), report.Decimal(st.SE))
		}
		for _, k := range sim.Keys(vals) {
			if metric, of, ok := strings.Cut(k, "/"); ok {
				st := sim.MeanSE(vals[k])
				byRows = append(byRows, []string{cond, metric, of, strconv.Itoa(len(vals[k])), report.Decimal(st.Mean), report.Decimal(st.SE)})
			}
		}
		mean, n, err := platitudes(ctx, m, cond, said, Items(rs[0]), &platRows)
		if err != nil {
			return nil, err
		}
		rows = append(rows, append(row, report.Decimal(mean), strconv.Itoa(n)))
	}
	return []report.Artifact{{Name: "panel_quality", Title: "Sentimental Agents, quality metrics",
		About: "Per condition: nuance (distinct words among the top 10 words of 5 LDA topics of the judges' arguments about an item, mean over items), drift (1 − cosine of successive mental models), defensibility (support of arguments in the items' source documents, 0 below cosine " + report.Decimal(m.Support) + ") and the share supported, mean and SE over tables; platitude: mean cosine of a judge's statements about an item across runs (higher: more alike), over the judge-item pairs. Texts compared as " + m.Embedding() + ".",
		CSV:   rows},
		{Name: "panel_platitude", Title: "Sentimental Agents, platitudinal score",
			About: "Per condition, judge and item: the mean pairwise cosine similarity (" + m.Embedding() + ") of the judge's arguments about the item in each run; needs two runs or more.",
			CSV:   platRows},
		{Name: "panel_nuance_drift", Title: "Sentimental Agents, nuance per item (Figure 6) and drift per judge (Table 2)",
			About: "Per condition: nuance of each item (distinct words among the top 10 words of 5 LDA topics fitted to all judges' arguments about it) and drift of each judge, mean and SE over tables.",
			CSV:   byRows}}, nil
}

// addStatements appends one run's arguments, joined, per judge and item.
func addStatements(into map[string]map[string][]string, run map[string]map[string][]string) {
	for judge, byItem := range run {
		if into[judge] == nil {
			into[judge] = map[string][]string{}
		}
		for it, args := range byItem {
			into[judge][it] = append(into[judge][it], strings.Join(args, " "))
		}
	}
}

// platitudes adds a row per judge and item and returns their mean (NaN
// without two runs) and how many pairs it averages.
func platitudes(ctx context.Context, m *Meter, cond string, said map[string]map[string][]string, items []string, rows *[][]string) (float64, int, error) {
	sum, n := 0.0, 0
	for _, judge := range sim.Keys(said) {
		for _, it := range sim.Keys(said[judge]) {
			p, ok, err := m.Platitude(ctx, said[judge][it], items)
			if err != nil {
				return 0, 0, err
			}
			if !ok {
				continue
			}
			*rows = append(*rows, []string{cond, judge, it, strconv.Itoa(len(said[judge][it])), report.Decimal(p)})
			sum += p
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0, nil
	}
	return sum / float64(n), n, nil
}

// panelBias fits the bias slopes per condition (CSV, with every point)
// and draws them over the α/tolerance grid, pooling the conditions of a
// cell.
func panelBias(runs map[string][]*roundtable.State) []report.Artifact {
	rows := [][]string{{"condition", "alpha", "tolerance", "temperature", "tables", "slope_positive", "n_positive", "r2_positive",
		"slope_negative", "n_negative", "r2_negative", "positive_over_negative", "bias"}}
	points := [][]string{{"condition", "peers_sentiment", "delta_S"}}
	cells := map[protocol.Cell][]Point{}
	for _, cond := range sim.Keys(runs) {
		var pts []Point
		for _, r := range runs[cond] {
			pts = append(pts, BiasPoints(r)...)
		}
		c := cellOf(runs[cond][0])
		cells[c] = append(cells[c], pts...)
		for _, p := range pts {
			points = append(points, []string{cond, report.Decimal(p.X), report.Decimal(p.Y)})
		}
		f := Fit(pts)
		rows = append(rows, []string{cond, report.Decimal(c.Alpha), strconv.FormatFloat(c.Tolerance, 'g', -1, 64), temperature(c), strconv.Itoa(len(runs[cond])),
			report.Decimal(f.Positive), strconv.Itoa(f.NPositive), report.Decimal(f.R2Positive),
			report.Decimal(f.Negative), strconv.Itoa(f.NNegative), report.Decimal(f.R2Negative),
			report.Decimal(f.Positive / f.Negative), biasLabel(f.Bias())})
	}
	pos, neg := biasHeats(cells)
	return append([]report.Artifact{
		{Name: "panel_bias", Title: "Sentimental Agents, cognitive bias (Figure 7)",
			About: "Per condition (α, tolerance and the models' temperature, `endpoint` for each endpoint's own): OLS through the origin of a judge's sentiment change S(t) − S(t−1) on its peers' mean sentiment at t−1, for positive and negative peers apart, with each fit's R² (uncentred, 1 − Σ(y − bx)²/Σy²); a steeper positive slope is positivity bias, a steeper negative one negativity bias, a slope above 1 saliency bias.",
			CSV:   rows},
		{Name: "panel_bias_points", Title: "Sentimental Agents, cognitive-bias observations",
			About: "Every observation behind panel_bias: the peers' mean sentiment at t−1 and the judge's change at t.", CSV: points},
		pos, neg,
	}, biasScatters(cells)...)
}

// biasScatters are the paper's Figure 7 per grid cell: each observation,
// and the two slopes fitted through the origin.
func biasScatters(cells map[protocol.Cell][]Point) []report.Artifact {
	var out []report.Artifact
	for _, c := range sortedCells(cells) {
		f := Fit(cells[c])
		pos := report.Points{Name: "positive peers", Slope: f.Positive}
		neg := report.Points{Name: "negative peers", Slope: f.Negative}
		for _, p := range cells[c] {
			switch {
			case p.X > 0:
				pos.X, pos.Y = append(pos.X, p.X), append(pos.Y, p.Y)
			case p.X < 0:
				neg.X, neg.Y = append(neg.X, p.X), append(neg.Y, p.Y)
			}
		}
		out = append(out, report.Artifact{Name: "panel_bias_" + c.Label(),
			Title: "Sentimental Agents, cognitive bias at " + cellWords(c) + " (Figure 7)",
			About: "A judge's sentiment change against its peers' mean sentiment at t−1, with the slopes fitted through the origin and their R² (points: panel_bias_points.csv).",
			CSV: [][]string{{"peers", "slope", "n", "r2", "bias"},
				{"positive", report.Decimal(f.Positive), strconv.Itoa(f.NPositive), report.Decimal(f.R2Positive), biasLabel(f.Bias())},
				{"negative", report.Decimal(f.Negative), strconv.Itoa(f.NNegative), report.Decimal(f.R2Negative), biasLabel(f.Bias())}},
			Scatter: &report.Scatter{Title: "Bias at " + cellWords(c),
				XLabel: "peers' mean sentiment at t−1", YLabel: "change S(t) − S(t−1)", Series: []report.Points{pos, neg}}})
	}
	return out
}

// sortedCells are the cells by alpha, then tolerance, then temperature.
func sortedCells(cells map[protocol.Cell][]Point) []protocol.Cell {
	out := slices.Collect(maps.Keys(cells))
	slices.SortFunc(out, func(a, b protocol.Cell) int {
		return cmp.Or(cmp.Compare(a.Alpha, b.Alpha), cmp.Compare(a.Tolerance, b.Tolerance),
			cmp.Compare(boolf(a.HasTemperature), boolf(b.HasTemperature)), cmp.Compare(a.Temperature, b.Temperature))
	})
	return out
}

// temperature is a cell's temperature for a CSV: "endpoint" when the
// cell left each endpoint its own.
func temperature(c protocol.Cell) string {
	if !c.HasTemperature {
		return "endpoint"
	}
	return strconv.FormatFloat(c.Temperature, 'g', -1, 64)
}

// cellWords names a cell in a title: "α=0.5, tolerance 1e-05" and ", T=0.7"
// when it set a temperature.
func cellWords(c protocol.Cell) string {
	w := fmt.Sprintf("α=%g, tolerance %g", c.Alpha, c.Tolerance)
	if c.HasTemperature {
		w += fmt.Sprintf(", T=%g", c.Temperature)
	}
	return w
}

func biasLabel(b string) string {
	if b == "" {
		return "none (a slope has no data or they are equal)"
	}
	return b
}

// biasHeats are the positive and negative slopes per cell: rows alpha
// (and temperature, when the cells set one), columns tolerance.
func biasHeats(cells map[protocol.Cell][]Point) (report.Artifact, report.Artifact) {
	type row struct {
		alpha, temp float64
		hasTemp     bool
	}
	var rowsOf []row
	var tols []float64
	for _, c := range sortedCells(cells) {
		r := row{c.Alpha, c.Temperature, c.HasTemperature}
		if !slices.Contains(rowsOf, r) {
			rowsOf = append(rowsOf, r)
		}
		tols = append(tols, c.Tolerance)
	}
	slices.Sort(tols)
	tols = slices.Compact(tols)
	heat := func(sign string) report.Artifact {
		h := &report.Heat{Title: "Bias slope, " + sign + " peers", XLabel: "tolerance (rows: alpha, temperature)", Min: -1.5, Max: 1.5}
		rows := [][]string{{"alpha", "temperature", "tolerance", "slope_" + sign, "n", "r2"}}
		for _, t := range tols {
			h.Cols = append(h.Cols, strconv.FormatFloat(t, 'g', -1, 64))
		}
		for _, r := range rowsOf {
			label := "α=" + strconv.FormatFloat(r.alpha, 'g', -1, 64)
			if r.hasTemp {
				label += " T=" + strconv.FormatFloat(r.temp, 'g', -1, 64)
			}
			h.Rows = append(h.Rows, label)
			line := make([]float64, len(tols))
			for j, t := range tols {
				c := protocol.Cell{Alpha: r.alpha, Tolerance: t, Temperature: r.temp, HasTemperature: r.hasTemp}
				f := Fit(cells[c])
				v, n, r2 := f.Negative, f.NNegative, f.R2Negative
				if sign == "positive" {
					v, n, r2 = f.Positive, f.NPositive, f.R2Positive
				}
				line[j] = v
				rows = append(rows, []string{report.Decimal(r.alpha), temperature(c), strconv.FormatFloat(t, 'g', -1, 64), report.Decimal(v), strconv.Itoa(n), report.Decimal(r2)})
			}
			h.Values = append(h.Values, line)
		}
		return report.Artifact{Name: "panel_bias_" + sign, Title: "Sentimental Agents, " + sign + "-peer slope over the α/tolerance/temperature grid",
			About: "The " + sign + "-peer bias slope per α and temperature (rows) and tolerance (columns), pooling every table of the cell, with the fit's R².", CSV: rows, Heat: h}
	}
	return heat("positive"), heat("negative")
}
