package protocol

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

// Stances gives k seats their starting stances on -2..2 by s.Stances:
// uniform (k/5 seats per level, as Opinion dynamics seats them; see
// Uniform), continuous (drawn
// uniformly from the interval, to 4 decimals), skewed (drawn toward
// agreement, the skewed start of Opinion dynamics), mixed (the levels 2,
// -2, 1, -1, 0 in turn), echo:LEVEL (everyone the same: an echo chamber)
// or a comma list used in turn. The draws depend on seed only.
func Stances(s Settings, k int, seed int64) ([]float64, error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x5eed))
	out := make([]float64, k)
	spec := s.Stances
	switch {
	case spec == "" || spec == "uniform":
		out = Uniform(k)
		rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	case spec == "continuous":
		for i := range out {
			out[i] = math.Round((rng.Float64()*4-2)*1e4) / 1e4
		}
	case spec == "skewed":
		for i := range out {
			out[i] = draw(rng, 0.05, 0.1, 0.15, 0.3, 0.4) - 2 // weights of -2 .. 2
		}
	case spec == "mixed":
		levels := []float64{2, -2, 1, -1, 0}
		for i := range out {
			out[i] = levels[i%len(levels)]
		}
	case strings.HasPrefix(spec, "echo:"):
		x, err := opinion.ParseStance(strings.TrimPrefix(spec, "echo:"))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", s.Field("stances"), err)
		}
		for i := range out {
			out[i] = x
		}
	default:
		return listStances(s, out)
	}
	return out, nil
}

// Uniform is the uniform start of Opinion dynamics for k seats: k/5 at
// each level of -2..2 (k a multiple of 5), ordered from -2 up. Decision:
// for other k every level gets ⌊k/5⌋ and the k mod 5 left over go to the
// levels nearest the middle, symmetric about 0 (1: 0; 2: -1, 1; 3: -1,
// 0, 1; 4: -2, -1, 1, 2), so the start stays unbiased (B = 0).
func Uniform(k int) []float64 {
	extra := [][]float64{nil, {0}, {-1, 1}, {-1, 0, 1}, {-2, -1, 1, 2}}[k%5]
	out := make([]float64, 0, k)
	for lvl := -2.0; lvl <= 2; lvl++ {
		for range k / 5 {
			out = append(out, lvl)
		}
		if slices.Contains(extra, lvl) {
			out = append(out, lvl)
		}
	}
	return out
}

func listStances(s Settings, out []float64) ([]float64, error) {
	parts := strings.Split(s.Stances, ",")
	vals := make([]float64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || v < -2 || v > 2 {
			return nil, fmt.Errorf("%s: %q is not uniform, skewed, mixed, echo:LEVEL or a comma list of numbers in -2..2", s.Field("stances"), s.Stances)
		}
		vals[i] = v
	}
	for i := range out {
		out[i] = vals[i%len(vals)]
	}
	return out, nil
}

// draw returns the index drawn with the given weights.
func draw(rng *rand.Rand, weights ...float64) float64 {
	x := rng.Float64()
	for i, w := range weights {
		if x < w {
			return float64(i)
		}
		x -= w
	}
	return float64(len(weights) - 1)
}

// FormatStance writes a stance as a seat's Stance.
func FormatStance(x float64) string { return fmt.Sprintf("%g", x) }

// StanceSeats are k seats agent-1 .. agent-k played by agents of kind
// s.Agent, each with its stance drawn by Stances; stances are returned
// too, for the personas a protocol writes from them.
func StanceSeats(s Settings, seed int64, k int) ([]roundtable.Participant, []float64, error) {
	stances, err := Stances(s, k, seed)
	if err != nil {
		return nil, nil, err
	}
	ps := make([]roundtable.Participant, k)
	for i := range ps {
		ps[i] = roundtable.Participant{ID: fmt.Sprintf("agent-%d", i+1), Name: fmt.Sprintf("Agent %d", i+1),
			Kind: roundtable.Bot, Agent: s.Agent, Stance: FormatStance(stances[i])}
	}
	return ps, stances, nil
}
