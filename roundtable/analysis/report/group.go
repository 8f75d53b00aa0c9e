package report

import (
	"math"
	"slices"
	"strconv"
)

// paperRules is the paper's order of the rules; others follow by name.
var paperRules = []string{"unanimous", "majority", "plurality", "rated", "ranked", "cumulative"}

// byRule groups tables by rule, in the paper's order.
func byRule(ts []Table) ([]string, map[string][]Table) {
	m := map[string][]Table{}
	for _, t := range ts {
		m[t.Rule] = append(m[t.Rule], t)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ia, ib := rank(a), rank(b)
		if ia != ib {
			return ia - ib
		}
		if a < b {
			return -1
		}
		if a > b {
			return 1
		}
		return 0
	})
	return keys, m
}

func rank(rule string) int {
	if i := slices.Index(paperRules, rule); i >= 0 {
		return i
	}
	return len(paperRules)
}

// ofTask keeps the tables of one task.
func ofTask(ts []Table, task string) []Table {
	var out []Table
	for _, t := range ts {
		if t.Task == task {
			out = append(out, t)
		}
	}
	return out
}

// withPerf keeps the tables that have a performance per round.
func withPerf(ts []Table) []Table {
	var out []Table
	for _, t := range ts {
		if len(t.Perf) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// maxRounds is the most rounds any table played.
func maxRounds(ts []Table) int {
	n := 0
	for _, t := range ts {
		n = max(n, t.Played())
	}
	return n
}

// at is s's value at round r, carrying the last value forward past the
// end (a table that stopped keeps its decision); NaN for an empty s.
func at(s []float64, r int) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	return s[min(r, len(s))-1]
}

// stat is a mean with its standard error and count.
type stat struct {
	mean, se float64
	n        int
}

// meanSE is the mean and standard error of the non-NaN values of xs.
func meanSE(xs []float64) stat {
	var s stat
	sum := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) {
			sum += x
			s.n++
		}
	}
	if s.n == 0 {
		return stat{mean: math.NaN(), se: math.NaN()}
	}
	s.mean = sum / float64(s.n)
	if s.n == 1 {
		return s
	}
	ss := 0.0
	for _, x := range xs {
		if !math.IsNaN(x) {
			ss += (x - s.mean) * (x - s.mean)
		}
	}
	s.se = math.Sqrt(ss/float64(s.n-1)) / math.Sqrt(float64(s.n))
	return s
}

// Num formats a number for CSV: empty for NaN (no data), else 6
// significant digits.
func Num(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

func itoa(n int) string { return strconv.Itoa(n) }

// Decimal formats a number for CSV with 4 decimals ("NaN" for no data),
// as the protocols' tables print their means.
func Decimal(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
