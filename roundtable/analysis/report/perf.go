package report

import "math"

// table1Columns are the paper's Table 1 columns, as the exchange task
// names its scalars (percent of U_max; AUC@n as the mean over n rounds).
var table1Columns = []string{"U@3", "U@5", "U@10", "AUC@3_mean", "AUC@5_mean", "AUC@10_mean", "rationality", "fairness", "rigidity"}

// table1 is the exchange economy's Table 1: mean and standard error of
// each column per rule, with the failed actions beside them.
func table1(ts []Table) *Artifact {
	ts = ofTask(ts, "exchange")
	if len(ts) == 0 {
		return nil
	}
	head := []string{"rule", "tables"}
	for _, c := range table1Columns {
		head = append(head, c, c+"_se")
	}
	rows := [][]string{append(head, "failed_actions")}
	rules, groups := byRule(ts)
	for _, rule := range rules {
		g := groups[rule]
		row := []string{rule, itoa(len(g))}
		fails := 0
		for _, c := range table1Columns {
			var xs []float64
			for _, t := range g {
				if v, ok := t.Scalars[c]; ok {
					xs = append(xs, v)
				}
			}
			s := meanSE(xs)
			row = append(row, Num(s.mean), Num(s.se))
		}
		for _, t := range g {
			fails += t.Failures
		}
		rows = append(rows, append(row, itoa(fails)))
	}
	return &Artifact{Name: "table1_exchange", Title: "Table 1",
		About: "Exchange economy per rule: group utility U@3/5/10 and AUC@3/5/10 (mean over n rounds) in percent of U_max, rationality, fairness (min/max) and rigidity in percent; mean and standard error over tables; failed agent actions summed.",
		CSV:   rows}
}

// perRound is a chart and CSV of a per-round value per rule: value(t, r)
// for each table, averaged over the rule's tables.
func perRound(ts []Table, name, title, about, ylabel string, value func(t Table, r int) float64) *Artifact {
	return aggregate(ts, name, title, about, ylabel, value, meanSE)
}

// aggregate is perRound with another statistic than the mean.
func aggregate(ts []Table, name, title, about, ylabel string, value func(t Table, r int) float64, agg func([]float64) stat) *Artifact {
	rules, groups := byRule(ts)
	n := maxRounds(ts)
	rows := [][]string{{"rule", "round", "mean", "se", "tables"}}
	ch := &Chart{Title: title + ": " + ylabel + " per round", XLabel: "round", YLabel: ylabel}
	for _, rule := range rules {
		line := Line{Name: rule, Y: make([]float64, n), SE: make([]float64, n)}
		for r := 1; r <= n; r++ {
			var xs []float64
			for _, t := range groups[rule] {
				xs = append(xs, value(t, r))
			}
			s := agg(xs)
			line.Y[r-1], line.SE[r-1] = s.mean, s.se
			rows = append(rows, []string{rule, itoa(r), Num(s.mean), Num(s.se), itoa(s.n)})
		}
		ch.Lines = append(ch.Lines, line)
	}
	return &Artifact{Name: name, Title: title, About: about, CSV: rows, Chart: ch}
}

// figure2 is Figure 2: (a) the exchange economy's group utility per round
// and (b) the share of tables with no decision yet per round.
func figure2(ts []Table) []Artifact {
	var out []Artifact
	if ex := withPerf(ofTask(ts, "exchange")); len(ex) > 0 {
		out = append(out, *perRound(ex, "figure2a_utility_per_round", "Figure 2(a)",
			"Exchange economy: group utility U_r in percent of U_max per round and rule (mean and standard error over tables; a table that stopped keeps its decision).",
			"U / U_max (%)", func(t Table, r int) float64 { return 100 * at(t.Perf, r) }))
	}
	if voted := withVote(ts); len(voted) > 0 {
		f2b := perRound(voted, "figure2b_not_agreed", "Figure 2(b)",
			"Share of tables (all tasks whose protocol votes) with no decision in force yet after each round, per rule; a table that stopped keeps the decision in force when it stopped.",
			"share not yet agreed", func(t Table, r int) float64 {
				if t.Played() == 0 {
					return math.NaN()
				}
				if t.Decided[min(r, t.Played())-1] {
					return 0
				}
				return 1
			})
		f2b.Chart.YMin, f2b.Chart.YMax = -0.04, 1.04 // a share
		out = append(out, *f2b)
	}
	return out
}

// withVote are the tables whose protocol has a vote.
func withVote(ts []Table) []Table {
	var out []Table
	for _, t := range ts {
		if t.Votes {
			out = append(out, t)
		}
	}
	return out
}

// figure3 is Figure 3: the recommendation task's MAE and RMSE per round.
func figure3(ts []Table) ([]Artifact, string) {
	rec := withPerf(ofTask(ts, "recommendation"))
	if len(rec) == 0 {
		return nil, "Figure 3 and Table 2 (recommendation): no recommendation tables with a scored rating per round in these runs."
	}
	mae := perRound(rec, "figure3a_mae_per_round", "Figure 3(a)", "Recommendation: mean absolute error of the rating in force per round and rule.",
		"MAE", func(t Table, r int) float64 { return at(t.Perf, r) })
	rmse := aggregate(rec, "figure3b_rmse_per_round", "Figure 3(b)", "Recommendation: root mean squared error of the rating in force per round and rule (no standard error).",
		"RMSE", func(t Table, r int) float64 { return at(t.Perf, r) }, rms)
	return []Artifact{*mae, *rmse}, ""
}

// rms is the root mean square of the non-NaN values of xs, as a stat
// without a standard error.
func rms(xs []float64) stat {
	sq := make([]float64, len(xs))
	for i, x := range xs {
		sq[i] = x * x
	}
	s := meanSE(sq)
	return stat{mean: math.Sqrt(s.mean), se: math.NaN(), n: s.n}
}
