package embed

import (
	"fmt"
	"math"
)

// Cosine is the cosine similarity of a and b; 0 when either is the zero
// vector. It fails when the lengths differ. Each vector is first divided by
// its largest magnitude, so tiny or huge components neither underflow nor
// overflow, and the result is clamped to [-1, 1] against rounding.
func Cosine(a, b []float64) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("cosine of vectors of length %d and %d", len(a), len(b))
	}
	a, b = unitScale(a), unitScale(b)
	na, nb := norm(a), norm(b)
	if na == 0 || nb == 0 {
		return 0, nil
	}
	dot := 0.0
	for i := range a {
		dot += a[i] * b[i]
	}
	return max(-1, min(1, dot/(na*nb))), nil
}

// unitScale returns v divided by its largest magnitude (v itself when that
// is 0 or already 1).
func unitScale(v []float64) []float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, math.Abs(x))
	}
	if m == 0 || m == 1 {
		return v
	}
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x / m
	}
	return out
}

// Centroid is the mean of vs (nil for none).
func Centroid(vs [][]float64) []float64 {
	if len(vs) == 0 {
		return nil
	}
	c := make([]float64, len(vs[0]))
	for _, v := range vs {
		for i := range c {
			if i < len(v) {
				c[i] += v[i]
			}
		}
	}
	for i := range c {
		c[i] /= float64(len(vs))
	}
	return c
}

// InfoDiff is the information difference of a round (docs/protocol.md#information-difference): the mean cosine distance 1 - cos(v, c) between each of the round's
// message embeddings cur and the centroid c of the previous round's prev.
// ok is false when either round has no messages (the first round has
// none).
func InfoDiff(prev, cur [][]float64) (d float64, ok bool, err error) {
	if len(prev) == 0 || len(cur) == 0 {
		return 0, false, nil
	}
	c := Centroid(prev)
	for _, v := range cur {
		cos, err := Cosine(v, c)
		if err != nil {
			return 0, false, fmt.Errorf("information difference: %w", err)
		}
		d += 1 - cos
	}
	return d / float64(len(cur)), true, nil
}

// Rounds is the information difference of each round, given the message
// embeddings of rounds 1..R in order: entry r-1 is round r's, with ok
// false for round 1 and for any round that has no messages or follows one
// that has none.
func Rounds(rounds [][][]float64) ([]RoundDiff, error) {
	out := make([]RoundDiff, len(rounds))
	for r := range rounds {
		out[r].Round = r + 1
		if r == 0 {
			continue
		}
		d, ok, err := InfoDiff(rounds[r-1], rounds[r])
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", r+1, err)
		}
		out[r].Value, out[r].OK = d, ok
	}
	return out, nil
}

// RoundDiff is one round's information difference.
type RoundDiff struct {
	Round int     `json:"round"`
	Value float64 `json:"value"`
	OK    bool    `json:"ok"`
}
