package sim

import (
	"math"
	"sort"
	"time"
)

// Stat is a mean with its standard error over runs.
type Stat struct {
	Mean float64 `json:"mean"`
	SE   float64 `json:"se"`
	N    int     `json:"n"`
}

// Summary aggregates the runs of a simulation.
type Summary struct {
	Runs     int                      `json:"runs"`
	Series   map[string][]Stat        `json:"series"`
	Scalars  map[string]Stat          `json:"scalars"`
	Failures int                      `json:"failures"` // failed agent actions and rejected ballots, over all runs
	Actions  int                      `json:"actions"`  // agent actions recorded, over all runs
	Tokens   int                      `json:"tokens"`
	Phases   map[string]time.Duration `json:"phase_wall_ns"`
	Ends     map[string]int           `json:"end_reasons"`
}

// Summarize aggregates runs: the mean and standard error of every series
// point and scalar, skipping NaN values.
func Summarize(runs []Run) Summary {
	s := Summary{Runs: len(runs), Series: map[string][]Stat{}, Scalars: map[string]Stat{},
		Phases: map[string]time.Duration{}, Ends: map[string]int{}}
	series := map[string][][]float64{}
	scalars := map[string][]float64{}
	for _, r := range runs {
		s.Failures += r.Failures
		s.Actions += r.Actions
		s.Tokens += r.Usage.PromptTokens + r.Usage.CompletionTokens
		s.Ends[r.Reason]++
		for p, d := range r.Phases {
			s.Phases[p] += d
		}
		for k, v := range r.Measures.Series {
			for i, x := range v {
				for len(series[k]) <= i {
					series[k] = append(series[k], nil)
				}
				series[k][i] = append(series[k][i], x)
			}
		}
		for k, v := range r.Measures.Scalars {
			scalars[k] = append(scalars[k], v)
		}
	}
	for k, points := range series {
		for _, xs := range points {
			s.Series[k] = append(s.Series[k], MeanSE(xs))
		}
	}
	for k, xs := range scalars {
		s.Scalars[k] = MeanSE(xs)
	}
	return s
}

// MeanSE returns the mean and standard error (sample standard deviation
// over the square root of n) of the non-NaN values of xs.
func MeanSE(xs []float64) Stat {
	var vals []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			vals = append(vals, x)
		}
	}
	n := len(vals)
	if n == 0 {
		return Stat{Mean: math.NaN(), SE: math.NaN()}
	}
	sum := 0.0
	for _, x := range vals {
		sum += x
	}
	mean := sum / float64(n)
	if n == 1 {
		return Stat{Mean: mean, N: 1}
	}
	ss := 0.0
	for _, x := range vals {
		ss += (x - mean) * (x - mean)
	}
	return Stat{Mean: mean, SE: math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n)), N: n}
}

// Keys returns the sorted keys of a map, for stable output.
func Keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
