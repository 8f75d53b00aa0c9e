package main

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// panelRun is one ended panel table, replayed.
type panelRun struct {
	state            *roundtable.State
	alpha, tolerance float64
}

// panelReports are the evaluation panel's quality metrics (with platitude
// across runs) and its cognitive-bias regressions per α/tolerance cell,
// from the ended panel tables by condition (see protocolArtifacts).
func panelReports(ctx context.Context, runs map[string][]panelRun) ([]report.Artifact, error) {
	if len(runs) == 0 {
		return nil, nil
	}
	m, err := panel.NewMeter(nil)
	if err != nil {
		return nil, err
	}
	quality, err := panelQuality(ctx, m, runs)
	if err != nil {
		return nil, err
	}
	return append(quality, panelBias(runs)...), nil
}

// panelQuality is one row per condition: the run metrics' mean and SE and
// the platitude across its runs; the platitude per judge and item; and
// nuance per item and drift per judge.
func panelQuality(ctx context.Context, m *panel.Meter, runs map[string][]panelRun) ([]report.Artifact, error) {
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
			q, err := m.Run(ctx, r.state)
			if err != nil {
				return nil, fmt.Errorf("measure %s: %w", r.state.ID, err)
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
			addStatements(said, m.Statements(r.state))
		}
		row := []string{cond, strconv.Itoa(len(rs)), formatFloat(rs[0].alpha), strconv.FormatFloat(rs[0].tolerance, 'g', -1, 64)}
		for _, k := range metrics {
			st := sim.MeanSE(vals[k])
			row = append(row, formatFloat(st.Mean), formatFloat(st.SE))
		}
		for _, k := range sim.Keys(vals) {
			if metric, of, ok := strings.Cut(k, "/"); ok {
				st := sim.MeanSE(vals[k])
				byRows = append(byRows, []string{cond, metric, of, strconv.Itoa(len(vals[k])), formatFloat(st.Mean), formatFloat(st.SE)})
			}
		}
		mean, n, err := platitudes(ctx, m, cond, said, panel.Items(rs[0].state), &platRows)
		if err != nil {
			return nil, err
		}
		rows = append(rows, append(row, formatFloat(mean), strconv.Itoa(n)))
	}
	return []report.Artifact{{Name: "panel_quality", Title: "Sentimental Agents, quality metrics",
		About: "Per condition: nuance (distinct topic keywords per judge and item), drift (1 − cosine of successive mental models), defensibility (support of arguments in the items' source documents, 0 below cosine " + formatFloat(m.Support) + ") and the share supported, mean and SE over tables; platitude: mean cosine of a judge's statements about an item across runs (higher: more alike), over the judge-item pairs. Texts compared as " + m.Embedding() + ".",
		CSV:   rows},
		{Name: "panel_platitude", Title: "Sentimental Agents, platitudinal score",
			About: "Per condition, judge and item: the mean pairwise cosine similarity (" + m.Embedding() + ") of the judge's arguments about the item in each run; needs two runs or more.",
			CSV:   platRows},
		{Name: "panel_nuance_drift", Title: "Sentimental Agents, nuance per item (Figure 6) and drift per judge (Table 2)",
			About: "Per condition: nuance of each item (distinct topic keywords in all judges' arguments about it) and drift of each judge, mean and SE over tables.",
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
func platitudes(ctx context.Context, m *panel.Meter, cond string, said map[string]map[string][]string, items []string, rows *[][]string) (float64, int, error) {
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
			*rows = append(*rows, []string{cond, judge, it, strconv.Itoa(len(said[judge][it])), formatFloat(p)})
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
func panelBias(runs map[string][]panelRun) []report.Artifact {
	rows := [][]string{{"condition", "alpha", "tolerance", "tables", "slope_positive", "n_positive", "slope_negative", "n_negative", "positive_over_negative", "bias"}}
	points := [][]string{{"condition", "peers_sentiment", "delta_S"}}
	cells := map[gridCell][]panel.Point{}
	for _, cond := range sim.Keys(runs) {
		var pts []panel.Point
		for _, r := range runs[cond] {
			pts = append(pts, panel.BiasPoints(r.state)...)
		}
		c := gridCell{runs[cond][0].alpha, runs[cond][0].tolerance}
		cells[c] = append(cells[c], pts...)
		for _, p := range pts {
			points = append(points, []string{cond, formatFloat(p.X), formatFloat(p.Y)})
		}
		f := panel.Fit(pts)
		rows = append(rows, []string{cond, formatFloat(c.alpha), strconv.FormatFloat(c.tolerance, 'g', -1, 64), strconv.Itoa(len(runs[cond])),
			formatFloat(f.Positive), strconv.Itoa(f.NPositive), formatFloat(f.Negative), strconv.Itoa(f.NNegative),
			formatFloat(f.Positive / f.Negative), biasLabel(f.Bias())})
	}
	pos, neg := biasHeats(cells)
	return append([]report.Artifact{
		{Name: "panel_bias", Title: "Sentimental Agents, cognitive bias (Figure 7)",
			About: "Per condition: OLS through the origin of a judge's sentiment change S(t) − S(t−1) on its peers' mean sentiment at t−1, for positive and negative peers apart; a steeper positive slope is positivity bias, a steeper negative one negativity bias, a slope above 1 saliency bias.",
			CSV:   rows},
		{Name: "panel_bias_points", Title: "Sentimental Agents, cognitive-bias observations",
			About: "Every observation behind panel_bias: the peers' mean sentiment at t−1 and the judge's change at t.", CSV: points},
		pos, neg,
	}, biasScatters(cells)...)
}

// biasScatters are the paper's Figure 7 per grid cell: each observation,
// and the two slopes fitted through the origin.
func biasScatters(cells map[gridCell][]panel.Point) []report.Artifact {
	var out []report.Artifact
	for _, c := range sortedCells(cells) {
		f := panel.Fit(cells[c])
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
		out = append(out, report.Artifact{Name: "panel_bias_" + c.label(),
			Title: fmt.Sprintf("Sentimental Agents, cognitive bias at α=%g, tolerance %g (Figure 7)", c.alpha, c.tolerance),
			About: "A judge's sentiment change against its peers' mean sentiment at t−1, with the slopes fitted through the origin (points: panel_bias_points.csv).",
			CSV: [][]string{{"peers", "slope", "n", "bias"},
				{"positive", formatFloat(f.Positive), strconv.Itoa(f.NPositive), biasLabel(f.Bias())},
				{"negative", formatFloat(f.Negative), strconv.Itoa(f.NNegative), biasLabel(f.Bias())}},
			Scatter: &report.Scatter{Title: fmt.Sprintf("Bias at α=%g, tolerance %g", c.alpha, c.tolerance),
				XLabel: "peers' mean sentiment at t−1", YLabel: "change S(t) − S(t−1)", Series: []report.Points{pos, neg}}})
	}
	return out
}

// sortedCells are the cells by alpha, then tolerance.
func sortedCells(cells map[gridCell][]panel.Point) []gridCell {
	out := slices.Collect(maps.Keys(cells))
	slices.SortFunc(out, func(a, b gridCell) int {
		if a.alpha != b.alpha {
			return cmp.Compare(a.alpha, b.alpha)
		}
		return cmp.Compare(a.tolerance, b.tolerance)
	})
	return out
}

func biasLabel(b string) string {
	if b == "" {
		return "none (a slope has no data or they are equal)"
	}
	return b
}

// biasHeats are the positive and negative slopes per cell: rows alpha,
// columns tolerance.
func biasHeats(cells map[gridCell][]panel.Point) (report.Artifact, report.Artifact) {
	var alphas, tols []float64
	for c := range cells {
		alphas, tols = append(alphas, c.alpha), append(tols, c.tolerance)
	}
	slices.Sort(alphas)
	slices.Sort(tols)
	alphas, tols = slices.Compact(alphas), slices.Compact(tols)
	heat := func(sign string) report.Artifact {
		h := &report.Heat{Title: "Bias slope, " + sign + " peers", XLabel: "tolerance (rows: alpha)", Min: -1.5, Max: 1.5}
		rows := [][]string{{"alpha", "tolerance", "slope_" + sign, "n"}}
		for _, t := range tols {
			h.Cols = append(h.Cols, strconv.FormatFloat(t, 'g', -1, 64))
		}
		for _, a := range alphas {
			h.Rows = append(h.Rows, "α="+strconv.FormatFloat(a, 'g', -1, 64))
			line := make([]float64, len(tols))
			for j, t := range tols {
				f := panel.Fit(cells[gridCell{a, t}])
				v, n := f.Negative, f.NNegative
				if sign == "positive" {
					v, n = f.Positive, f.NPositive
				}
				line[j] = v
				rows = append(rows, []string{formatFloat(a), strconv.FormatFloat(t, 'g', -1, 64), formatFloat(v), strconv.Itoa(n)})
			}
			h.Values = append(h.Values, line)
		}
		return report.Artifact{Name: "panel_bias_" + sign, Title: "Sentimental Agents, " + sign + "-peer slope over the α/tolerance grid",
			About: "The " + sign + "-peer bias slope per α (rows) and tolerance (columns), pooling every table of the cell.", CSV: rows, Heat: h}
	}
	return heat("positive"), heat("negative")
}
