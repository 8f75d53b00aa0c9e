package deliberation

import (
	"fmt"
	"math"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
)

// exchangeRounds are the rounds at which the paper reports U and AUC.
func exchangeRounds() []int { return []int{3, 5, 10} }

// MeasureExchange: the utility U after each round in percent of U_max,
// the paper's Table 1 figures, and the share of tables decided.
func MeasureExchange(t roundtable.Task, s *roundtable.State) sim.Measures {
	m := t.(*exchange.Task).Measure(s)
	rounds := s.Config.Rounds
	u := make([]float64, rounds)
	for r := 1; r <= rounds; r++ {
		u[r-1] = 100 * m.At(r)
	}
	sc := map[string]float64{
		"rationality": 100 * m.Rationality,
		"fairness":    100 * m.Fairness,
		"rigidity":    100 * m.Rigidity,
		"U_final":     100 * m.At(rounds),
	}
	for _, n := range exchangeRounds() {
		sc[fmt.Sprintf("U@%d", n)] = 100 * m.At(n)
		sc[fmt.Sprintf("AUC@%d", n)] = m.AUC(n)
		sc[fmt.Sprintf("AUC@%d_mean", n)] = 100 * m.AUC(n) / float64(n)
	}
	if m.Proposals == 0 {
		sc["rationality"] = math.NaN()
	}
	out := sim.Measures{Series: map[string][]float64{"U": u, "coverage": Coverage(s)}, Scalars: sc}
	addFormatErrors(out, s)
	return out
}

// MeasureText: whether a decision stands after each round, the first
// round of agreement, and format errors per agent and phase.
func MeasureText(_ roundtable.Task, s *roundtable.State) sim.Measures {
	first := math.NaN()
	for r, rr := range s.Rounds {
		if rr.Tally != nil && rr.Tally.Winner != "" {
			first = float64(r + 1)
			break
		}
	}
	cov := Coverage(s)
	m := sim.Measures{Series: map[string][]float64{"decided": cov, "coverage": cov}, Scalars: map[string]float64{"first_agreement": first}}
	addFormatErrors(m, s)
	return m
}

// MeasureRecommend: the error of the decision in force after each round
// (a round with nothing decided counts as the "always 4" prediction).
func MeasureRecommend(_ roundtable.Task, s *roundtable.State) sim.Measures {
	c, err := recommend.CaseOf(s.Config.Task) // from the log: an export re-scores the same way
	if err != nil {
		return sim.Measures{Scalars: map[string]float64{"format_errors": math.NaN()}}
	}
	truth := float64(c.Rating)
	abs, sq := make([]float64, s.Config.Rounds), make([]float64, s.Config.Rounds)
	pred := 4.0
	for r := range abs {
		if r < len(s.Rounds) && s.Rounds[r].Decision != nil {
			if v, err := recommend.ParseRating(s.Rounds[r].Decision.Proposal); err == nil {
				pred = float64(v)
			}
		}
		abs[r], sq[r] = math.Abs(pred-truth), (pred-truth)*(pred-truth)
	}
	m := sim.Measures{Series: map[string][]float64{"abs_error": abs, "sq_error": sq, "coverage": Coverage(s)}, Scalars: map[string]float64{}}
	addFormatErrors(m, s)
	return m
}

// Coverage is, per round, 1 when a decision is in force after the round
// and 0 before the first one; a table that ended early keeps its last
// value. Its mean over tables is the share of tables with a decision by
// round r, the complement of the paper's Figure 2 ("not yet agreed").
func Coverage(s *roundtable.State) []float64 {
	out := make([]float64, s.Config.Rounds)
	for r := range out {
		switch {
		case r < len(s.Rounds) && s.Rounds[r].Decision != nil:
			out[r] = 1
		case r > 0:
			out[r] = out[r-1]
		}
	}
	return out
}

// addFormatErrors counts format errors per agent and phase kind, and the
// failed actions by kind.
func addFormatErrors(m sim.Measures, s *roundtable.State) {
	total := 0.0
	for _, c := range agent.FormatErrors(s) {
		m.Scalars[fmt.Sprintf("format_errors/%s/%s", c.Participant, c.Phase)] += float64(c.Count)
		total += float64(c.Count)
	}
	m.Scalars["format_errors"] = total
	addFailureKinds(m, s)
}

// FailureKinds are the kinds of failed actions: a model or transport
// error, no answer in time, an answer invalid twice, an answer cut at the
// token limit, a refusal.
func FailureKinds() []string { return []string{"error", "timeout", "format", "length", "refusal"} }

// addFailureKinds counts a table's failed actions by kind, every kind
// present (zero included) so that means over tables are per table.
func addFailureKinds(m sim.Measures, s *roundtable.State) {
	for _, k := range FailureKinds() {
		m.Scalars["failed/"+k] = 0
	}
	for _, r := range s.Rounds {
		for _, f := range r.Failures {
			m.Scalars["failed/"+f.Kind]++
		}
	}
}

// Units are the units of RoundTable's figures. Keys ending in "/*" cover
// a family (format_errors/<participant>/<phase>).
func Units() map[string]string {
	return map[string]string{
		"U":               "percent of U_max, after each round",
		"U@3":             "percent of U_max",
		"U@5":             "percent of U_max",
		"U@10":            "percent of U_max",
		"U_final":         "percent of U_max",
		"AUC@3":           "sum over rounds 1..3 of U_r/U_max (a fraction per round, 0..3)",
		"AUC@5":           "sum over rounds 1..5 of U_r/U_max (0..5)",
		"AUC@10":          "sum over rounds 1..10 of U_r/U_max (0..10)",
		"AUC@3_mean":      "percent of U_max, mean over rounds 1..3 (as the paper prints AUC)",
		"AUC@5_mean":      "percent of U_max, mean over rounds 1..5",
		"AUC@10_mean":     "percent of U_max, mean over rounds 1..10",
		"rationality":     "percent of proposals",
		"fairness":        "percent (min over max utility under the last decision)",
		"rigidity":        "percent of the rounds that had a vote",
		"coverage":        "share of tables (0..1) with a decision in force after each round",
		"decided":         "share of tables (0..1) with a decision in force after each round",
		"first_agreement": "round number (1-based) of the first accepted proposal",
		"abs_error":       "stars, absolute error of the decision in force (always 4 while none), after each round",
		"sq_error":        "stars squared, after each round (RMSE is the square root of its mean)",
		"format_errors":   "count per table",
		"format_errors/*": "count per table, for one participant and phase",
	}
}
