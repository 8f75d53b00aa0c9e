package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// failureKinds are the kinds of failed actions: a model or transport error,
// no answer in time, an answer invalid twice, an answer cut at the token
// limit, a refusal.
var failureKinds = []string{"error", "timeout", "format", "length", "refusal"}

// addFailureKinds counts a table's failed actions by kind, every kind
// present (zero included) so that means over tables are per table.
func addFailureKinds(m sim.Measures, s *roundtable.State) {
	for _, k := range failureKinds {
		m.Scalars["failed/"+k] = 0
	}
	for _, r := range s.Rounds {
		for _, f := range r.Failures {
			m.Scalars["failed/"+f.Kind]++
		}
	}
}

// printFailureKinds prints, per rule with failures, the failed actions per
// table by kind.
func printFailureKinds(w io.Writer, rules []vote.Rule, rep simReport) {
	for _, r := range rules {
		sc := rep.Rules[string(r)].Summary.Scalars
		var parts []string
		for _, k := range failureKinds {
			if st, ok := sc["failed/"+k]; ok && st.Mean > 0 {
				parts = append(parts, fmt.Sprintf("%s %.2f", k, st.Mean))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "failed actions %s, per table by kind: %s\n", r, strings.Join(parts, ", "))
		}
	}
}

// coverage is, per round, 1 when a decision is in force after the round
// and 0 before the first one; a table that ended early keeps its last
// value. Its mean over tables is the share of tables with a decision by
// round r, the complement of the paper's Figure 2 ("not yet agreed").
func coverage(s *roundtable.State) []float64 {
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

// metricUnits states the unit of every series and scalar a sim writes to
// summary.json, so no number there needs guessing. Keys ending in "/*"
// cover a family (format_errors/<participant>/<phase>).
var metricUnits = map[string]string{
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
	"failures":        "count of failed agent actions and rejected ballots, over all tables",
	"actions":         "count of agent actions recorded, over all tables",
	"tokens":          "prompt plus completion tokens, over all tables",
	"wall_ns":         "nanoseconds",
	"phase_wall_ns":   "nanoseconds, summed over tables",
	"usage":           "model calls, retries and tokens (counts) of one table; latency_ms in milliseconds, summed over calls",
	"end_reasons":     "count of tables per reason they ended",
	"rounds":          "count of rounds (per run: the rounds played; top level: the rounds configured)",
	"mean, se, n":     "each statistic: the mean over tables, its standard error, and the number of tables with a value",
}
