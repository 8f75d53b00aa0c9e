package experiment

import (
	"maps"
	"strings"

	deliberation "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
)

// metricUnits states the unit of every series and scalar a sim writes to
// summary.json, RoundTable's figures included, beside a protocol's own
// (protocol.Headless.Units), so no number there needs guessing.
func metricUnits() map[string]string {
	return withUnits(deliberation.Units(), map[string]string{
		"failures":      "count of failed agent actions and rejected ballots, over all tables",
		"actions":       "count of agent actions recorded, over all tables",
		"tokens":        "prompt plus completion tokens, over all tables",
		"wall_ns":       "nanoseconds",
		"phase_wall_ns": "nanoseconds, summed over tables",
		"usage":         "model calls, retries and tokens (counts) of one table; latency_ms in milliseconds, summed over calls",
		"end_reasons":   "count of tables per reason they ended",
		"rounds":        "count of rounds (per run: the rounds played; top level: the rounds configured)",
		"mean, se, n":   "each statistic: the mean over tables, its standard error, and the number of tables with a value",
	})
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
