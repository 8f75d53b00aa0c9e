package opinion

import (
	"math"
	"slices"
)

// Defaults of docs/protocol.md#offline-updates.
const (
	DefaultWeight  = 0.5 // DeGroot: how far the listener moves toward the speaker
	DefaultMu      = 0.3 // Deffuant: convergence parameter
	DefaultEpsilon = 1.0 // Deffuant: confidence bound on the -2..2 scale
)

// DeGroot is the listener's opinion after hearing the speaker:
// x_j <- (1-w) x_j + w x_i.
func DeGroot(listener, speaker, w float64) float64 {
	return (1-w)*listener + w*speaker
}

// Deffuant is the bounded-confidence update of a pair: when their opinions
// differ by less than epsilon, each moves by mu of the difference toward
// the other; otherwise neither moves.
func Deffuant(xi, xj, mu, epsilon float64) (float64, float64) {
	if math.Abs(xi-xj) >= epsilon {
		return xi, xj
	}
	return xi + mu*(xj-xi), xj + mu*(xi-xj)
}

// Iterate applies the DeGroot weight matrix w (rows sum to 1) to x for
// steps steps: x(t+1) = W x(t).
func Iterate(w [][]float64, x []float64, steps int) []float64 {
	cur := append([]float64(nil), x...)
	for range steps {
		next := make([]float64, len(cur))
		for i, row := range w {
			for j, wij := range row {
				next[i] += wij * cur[j]
			}
		}
		cur = next
	}
	return cur
}

// Bias is B, the mean of the final opinions (NaN for none).
func Bias(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// Diversity is D, the sample standard deviation of the final opinions
// (divided by n − 1), as Opinion dynamics computes it: its uniform start of
// 10 agents, two per level, has D = 1.49. Decision: one opinion has no
// spread (0); none is NaN.
func Diversity(xs []float64) float64 {
	b := Bias(xs)
	if math.IsNaN(b) || !slices.ContainsFunc(xs, func(x float64) bool { return x != xs[0] }) {
		return b * 0 // none: NaN; one opinion, or a consensus: exactly 0
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - b) * (x - b)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// Round maps a continuous opinion to the nearest level of -2..2.
func Round(x float64) float64 {
	return math.Max(-2, math.Min(2, math.Round(x)))
}
