package experiment

import (
	"maps"
	"strings"
)

// metricUnits states the unit of every series and scalar a sim writes to
// summary.json beside a protocol's own (protocol.Headless.Units), so no
// number there needs guessing. Keys ending in "/*" cover a family
// (format_errors/<participant>/<phase>).
func metricUnits() map[string]string {
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
}

// UnitOf is the unit of metric key in units: its own, or its family's
// ("S/*" for "S/Ann").
func UnitOf(units map[string]string, key string) string {
	if u, ok := units[key]; ok {
		return u
	}
	if i := strings.Index(key, "/"); i >= 0 {
		return units[key[:i+1]+"*"]
	}
	return ""
}

// withUnits adds an experiment's units to the common ones.
func withUnits(common, own map[string]string) map[string]string {
	out := maps.Clone(common)
	maps.Copy(out, own)
	return out
}
