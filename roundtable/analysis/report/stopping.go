package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/earlystop"
)

// stopRun turns a table into what the stopping methods see; its
// dialogue-act pairs are counted by c, as the transition graph counts
// them.
func stopRun(t Table, c acts.Counting) earlystop.Run {
	n := len(t.Perf)
	r := earlystop.Run{Perf: t.Perf, Agreed: fitBool(t.Agreed, n), Proposed: fitBool(t.Proposed, n)}
	if len(t.InfoDiff) > 0 {
		r.InfoDiff = make([]float64, n)
		for i := range n {
			r.InfoDiff[i] = math.NaN()
			if i < len(t.InfoDiff) {
				r.InfoDiff[i] = t.InfoDiff[i]
			}
		}
	}
	if hasActs(t.Messages) {
		r.Pairs = pairs(t, c, n)
	}
	return r
}

func fitBool(b []bool, n int) []bool {
	out := make([]bool, n)
	copy(out, b)
	return out
}

// pairs are the dialogue-act pairs of t's first rounds, counted by c:
// entry r-1 holds the step from round r-1 (Start before round 1) to
// round r, the numerators of the transition graph.
func pairs(t Table, c acts.Counting, rounds int) []map[earlystop.Pair]int {
	steps := c.Steps(dialogue(t))
	out := make([]map[earlystop.Pair]int, rounds)
	for r := range out {
		out[r] = map[earlystop.Pair]int{}
		if r >= len(steps) {
			continue
		}
		for a, bs := range steps[r].Next {
			for b, n := range bs {
				out[r][earlystop.Pair{From: a, To: b}] = n
			}
		}
	}
	return out
}

// earlyStopping is Table 10 (and Table 2 for the recommendation task):
// each method's cross-validated performance per rule, and Table 11: the
// stopped round, effective ratio and threshold.
func earlyStopping(ts []Table, o Options) ([]Artifact, []string) {
	var out []Artifact
	var skipped []string
	for _, task := range []string{"exchange", "recommendation"} {
		tt := withPerf(ofTask(ts, task))
		if len(tt) == 0 {
			continue
		}
		dir, unit := earlystop.HigherIsBetter, "U/U_max (higher is better)"
		if task == "recommendation" {
			dir, unit = earlystop.LowerIsBetter, "MAE (lower is better)"
		}
		res, skip := evaluateRules(tt, o, dir)
		skipped = append(skipped, skip...)
		if len(res.rules) == 0 {
			continue
		}
		t10 := Artifact{Name: "table10_early_stopping_" + task, Title: "Table 10",
			About: fmt.Sprintf("Early stopping, %s: each method's performance in %s at the round it stops, per rule, by %d-fold cross-validation (folds from seed %d).", task, unit, earlystop.DefaultFolds, o.Seed),
			CSV:   res.wide()}
		out = append(out, t10)
		if task == "recommendation" {
			t2 := t10
			t2.Name, t2.Title = "table2_early_stopping_recommendation", "Table 2"
			out = append(out, t2)
		}
		out = append(out, Artifact{Name: "table11_early_stopping_stats_" + task, Title: "Table 11",
			About: fmt.Sprintf("Early stopping, %s: per method and rule, the mean stopped round, the effective ratio (share of held-out tables where the method's signal fired), the threshold learned (checkpoint round, information difference, dialogue-act score; mean over folds) and each fold's parameters.", task),
			CSV:   res.long()})
	}
	return out, skipped
}

type stopResults struct {
	rules []string
	by    map[string][]earlystop.Outcome
}

func evaluateRules(ts []Table, o Options, dir earlystop.Direction) (stopResults, []string) {
	res := stopResults{by: map[string][]earlystop.Outcome{}}
	var skipped []string
	rules, groups := byRule(ts)
	for _, rule := range rules {
		runs := make([]earlystop.Run, len(groups[rule]))
		for i, t := range groups[rule] {
			runs[i] = stopRun(t, o.Transitions)
		}
		o, err := earlystop.Evaluate(runs, earlystop.Options{Seed: o.Seed, Direction: dir})
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("Early stopping for %s tables under %s: %v.", ts[0].Task, rule, err))
			continue
		}
		res.rules = append(res.rules, rule)
		res.by[rule] = o
	}
	return res, skipped
}

func (s stopResults) wide() [][]string {
	rows := [][]string{append([]string{"method"}, s.rules...)}
	for i, m := range earlystop.Methods() {
		row := []string{m.Label()}
		for _, rule := range s.rules {
			row = append(row, Num(s.by[rule][i].Perf))
		}
		rows = append(rows, row)
	}
	return rows
}

func (s stopResults) long() [][]string {
	rows := [][]string{{"method", "rule", "tables", "performance", "stopped_round", "effective_ratio", "threshold", "fold_params"}}
	for i, m := range earlystop.Methods() {
		for _, rule := range s.rules {
			o := s.by[rule][i]
			rows = append(rows, []string{m.Label(), rule, itoa(o.Runs), Num(o.Perf), Num(o.Round), Num(o.Effective), Num(o.Threshold), strings.Join(o.Params, " | ")})
		}
	}
	return rows
}
