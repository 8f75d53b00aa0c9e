package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

// skewedWeights favour agreement: the skewed start of Opinion dynamics.
var skewedWeights = []float64{0.05, 0.1, 0.15, 0.3, 0.4} // -2 .. 2

// assignStances gives k agents their starting stances on -2..2 by spec:
// uniform (each drawn uniformly from the five levels), continuous (drawn
// uniformly from the interval, to 4 decimals), skewed (drawn
// toward agreement), mixed (the levels 2, -2, 1, -1, 0 in turn), echo:LEVEL
// (everyone the same: an echo chamber) or a comma list used in turn.
func assignStances(spec string, k int, seed int64) ([]float64, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	out := make([]float64, k)
	switch {
	case spec == "" || spec == "uniform":
		for i := range out {
			out[i] = float64(rng.IntN(5) - 2)
		}
	case spec == "continuous":
		for i := range out {
			out[i] = math.Round((rng.Float64()*4-2)*1e4) / 1e4
		}
	case spec == "skewed":
		for i := range out {
			out[i] = draw(rng, skewedWeights) - 2
		}
	case spec == "mixed":
		levels := []float64{2, -2, 1, -1, 0}
		for i := range out {
			out[i] = levels[i%len(levels)]
		}
	case strings.HasPrefix(spec, "echo:"):
		x, err := opinion.ParseStance(strings.TrimPrefix(spec, "echo:"))
		if err != nil {
			return nil, usagef("--stances: %v", err)
		}
		for i := range out {
			out[i] = x
		}
	default:
		return listStances(spec, out)
	}
	return out, nil
}

func listStances(spec string, out []float64) ([]float64, error) {
	parts := strings.Split(spec, ",")
	vals := make([]float64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || v < -2 || v > 2 {
			return nil, usagef("--stances: %q is not uniform, skewed, mixed, echo:LEVEL or a comma list of numbers in -2..2", spec)
		}
		vals[i] = v
	}
	for i := range out {
		out[i] = vals[i%len(vals)]
	}
	return out, nil
}

func draw(rng *rand.Rand, weights []float64) float64 {
	x := rng.Float64()
	for i, w := range weights {
		if x < w {
			return float64(i)
		}
		x -= w
	}
	return float64(len(weights) - 1)
}

func formatStance(x float64) string { return fmt.Sprintf("%g", x) }
