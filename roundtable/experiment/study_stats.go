package experiment

import (
	"encoding/csv"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Interval is a mean over tables with its standard error, the 95%
// interval of Student's t around it (NaN below two tables), and n.
type Interval struct {
	sim.Stat
	Low, High float64
}

// IntervalOf is the statistics of the non-NaN values of xs.
func IntervalOf(xs []float64) Interval {
	st := sim.MeanSE(xs)
	iv := Interval{Stat: st, Low: math.NaN(), High: math.NaN()}
	if st.N >= 2 {
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(st.N - 1)}.Quantile(0.975)
		iv.Low, iv.High = st.Mean-t*st.SE, st.Mean+t*st.SE
	}
	return iv
}

// PermutationP is the two-sided p-value of the difference of the means of
// a and b (NaN values left out) under perms random relabellings drawn
// from rng: (1 + relabellings at least as far from zero) / (1 + perms).
func PermutationP(a, b []float64, perms int, rng *rand.Rand) float64 {
	a, b = finite(a), finite(b)
	if len(a) == 0 || len(b) == 0 {
		return math.NaN()
	}
	all := append(append([]float64(nil), a...), b...)
	observed := math.Abs(mean(a) - mean(b))
	hits := 0
	for range perms {
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		if math.Abs(mean(all[:len(a)])-mean(all[len(a):])) >= observed-1e-12 {
			hits++
		}
	}
	return float64(1+hits) / float64(1+perms)
}

func finite(xs []float64) []float64 {
	var out []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// values are a group's values of every metric, per table: each
// scalar, each series' point per round ("U", round r), and each series'
// last value ("U@final").
// metricValue names a metric's value: the metric, and the round of a
// series' point.
type metricValue struct {
	metric string
	round  int // 0 for a scalar
}

func (g *conditionGroup) values() map[metricValue][]float64 {
	out := map[metricValue][]float64{}
	for _, m := range g.Measures {
		for k, v := range m.Scalars {
			out[metricValue{k, 0}] = append(out[metricValue{k, 0}], v)
		}
		for k, series := range m.Series {
			for r, v := range series {
				out[metricValue{k, r + 1}] = append(out[metricValue{k, r + 1}], v)
			}
			if len(series) > 0 {
				final := metricValue{k + "@final", 0}
				out[final] = append(out[final], series[len(series)-1])
			}
		}
	}
	return out
}

func sortedMetrics(m map[metricValue][]float64) []metricValue {
	keys := make([]metricValue, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b metricValue) int {
		if a.metric != b.metric {
			if a.metric < b.metric {
				return -1
			}
			return 1
		}
		return a.round - b.round
	})
	return keys
}

// writeConditionStats writes conditions.csv: per group and metric (and
// round of a series), the mean, standard error, 95% interval and n.
func writeConditionStats(dir string, groups []*conditionGroup) ([]string, error) {
	rows := [][]string{{"condition", "metric", "round", "mean", "se", "ci95_low", "ci95_high", "n", "unit"}}
	for _, g := range groups {
		vals := g.values()
		for _, k := range sortedMetrics(vals) {
			iv := IntervalOf(vals[k])
			rows = append(rows, []string{g.Label, k.metric, roundText(k.round), num(iv.Mean), num(iv.SE), num(iv.Low), num(iv.High),
				strconv.Itoa(iv.N), UnitOf(g.units, trimFinal(k.metric))})
		}
	}
	return writeRows(filepath.Join(dir, "conditions.csv"), rows)
}

// writeDifferences writes differences.csv: for every pair of groups and
// every scalar (and each series' final value) both have, the difference
// of the means (second minus first) and its permutation p-value, each
// pair and metric drawn from its own stream of seed.
func writeDifferences(dir string, groups []*conditionGroup, perms int, seed int64) ([]string, error) {
	rows := [][]string{{"condition_a", "condition_b", "metric", "mean_a", "mean_b", "difference", "p_value", "permutations", "n_a", "n_b"}}
	for i, a := range groups {
		va := a.values()
		for _, b := range groups[i+1:] {
			vb := b.values()
			for _, k := range sortedMetrics(va) {
				xb, ok := vb[k]
				if !ok || k.round != 0 {
					continue
				}
				xa := va[k]
				sa, sb := sim.MeanSE(xa), sim.MeanSE(xb)
				h := fnv.New64a()
				fmt.Fprintf(h, "%s|%s|%s", a.Label, b.Label, k.metric)
				p := PermutationP(xa, xb, perms, rand.New(rand.NewPCG(uint64(seed), h.Sum64())))
				rows = append(rows, []string{a.Label, b.Label, k.metric, num(sa.Mean), num(sb.Mean), num(sb.Mean - sa.Mean), num(p),
					strconv.Itoa(perms), strconv.Itoa(sa.N), strconv.Itoa(sb.N)})
			}
		}
	}
	return writeRows(filepath.Join(dir, "differences.csv"), rows)
}

func trimFinal(metric string) string { return strings.TrimSuffix(metric, "@final") }

func roundText(r int) string {
	if r == 0 {
		return ""
	}
	return strconv.Itoa(r)
}

// num writes x for a CSV cell: "" for NaN.
func num(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

func writeRows(path string, rows [][]string) ([]string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	w := csv.NewWriter(f)
	werr := w.WriteAll(rows)
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		return nil, fmt.Errorf("write %s: %w", path, werr)
	}
	return []string{path}, nil
}
