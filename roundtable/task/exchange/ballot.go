package exchange

import (
	"math"
	"sort"
)

// tieTolerance is the relative difference in utility below which two
// candidates are equally good to an agent.
const tieTolerance = 1e-9

// values is the agent's utility for each candidate, -1 for an invalid one so
// that it ranks below every valid candidate.
func (s Strategy) values(candidates []Allocation) []float64 {
	v := make([]float64, len(candidates))
	for c, a := range candidates {
		v[c] = -1
		if s.Economy.Validate(a) == nil {
			v[c] = s.Economy.Utility(s.Self, a)
		}
	}
	return v
}

// tied reports whether utilities u and v are equal within tieTolerance.
func tied(u, v float64) bool {
	return math.Abs(u-v) <= tieTolerance*math.Max(1, math.Max(math.Abs(u), math.Abs(v)))
}

// Choose is the agent's one-vote ballot: the index of the valid candidate
// that gives it the highest utility, or -1 (abstain) if none is valid. Among
// candidates it finds equally good it prefers one identical to the decision
// in force (keeping what the group has), then the lowest index.
//
// Pure self-interest never makes an agent vote for a proposal worse for it
// than the decision, so a unanimous vote passes only when the proposals
// converge; the strategy's concession makes them converge to the same
// allocation, which merges into a single candidate.
func (s Strategy) Choose(candidates []Allocation, decision Allocation) int {
	v := s.values(candidates)
	best := -1
	for c, x := range v {
		if x < 0 {
			continue
		}
		if best < 0 || (x > v[best] && !tied(x, v[best])) {
			best = c
		}
	}
	if best < 0 || decision == nil {
		return best
	}
	key := s.Economy.Canonical(decision)
	for c, x := range v {
		if x >= 0 && tied(x, v[best]) && s.Economy.Canonical(candidates[c]) == key {
			return c
		}
	}
	return best
}

// Scores is the agent's rated ballot: 1..5 per candidate, linear in its
// utility between the worst (1) and best (5) valid candidate, rounded; 3 for
// all when every valid candidate is equally good; 1 for invalid candidates.
func (s Strategy) Scores(candidates []Allocation) []int {
	v := s.values(candidates)
	lo, hi := span(v)
	out := make([]int, len(v))
	for c, x := range v {
		switch {
		case x < 0:
			out[c] = 1
		case tied(lo, hi):
			out[c] = 3
		default:
			out[c] = 1 + int(math.Round(4*(x-lo)/(hi-lo)))
		}
	}
	return out
}

// span is the smallest and largest non-negative value of v (0, 0 if none).
func span(v []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if x >= 0 {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	if math.IsInf(lo, 1) {
		return 0, 0
	}
	return lo, hi
}

// Ranking is the agent's ranked ballot: every candidate index, best first by
// its utility, invalid candidates last, ties in index order.
func (s Strategy) Ranking(candidates []Allocation) []int {
	v := s.values(candidates)
	order := make([]int, len(v))
	for c := range order {
		order[c] = c
	}
	sort.SliceStable(order, func(x, y int) bool {
		a, b := v[order[x]], v[order[y]]
		return a > b && !tied(a, b)
	})
	return order
}

// Points is the agent's cumulative ballot: non-negative integers summing to
// len(candidates), proportional to each candidate's utility surplus over
// the worst valid candidate (largest-remainder rounding, ties to the lower
// index). Invalid candidates get 0; if no valid candidate stands out the
// points are spread evenly over the valid ones (over all if none is valid).
func (s Strategy) Points(candidates []Allocation) []int {
	v := s.values(candidates)
	lo, _ := span(v)
	w := make([]float64, len(v))
	sum := 0.0
	for c, x := range v {
		if x >= 0 {
			w[c] = x - lo
			sum += w[c]
		}
	}
	if hi := lo + sum; !(sum > 0) || tied(lo, hi) {
		sum = 0
		none := allInvalid(v)
		for c, x := range v {
			w[c] = 0
			if x >= 0 || none {
				w[c] = 1
				sum++
			}
		}
	}
	quota := make([]float64, len(v))
	for c := range w {
		quota[c] = float64(len(v)) * w[c] / sum
	}
	return largestRemainder(quota, len(v))
}

func allInvalid(v []float64) bool {
	for _, x := range v {
		if x >= 0 {
			return false
		}
	}
	return true
}

// Approve is the agent's approval ballot: the candidates (in index order)
// that give it at least its utility under the decision in force, or, with no
// valid decision, under the equal split.
func (s Strategy) Approve(candidates []Allocation, decision Allocation) []int {
	e := s.Economy
	base := e.EqualSplit()
	if decision != nil && e.Validate(decision) == nil {
		base = decision
	}
	floor := e.Utility(s.Self, base)
	out := []int{}
	for c, x := range s.values(candidates) {
		if x >= 0 && (x >= floor || tied(x, floor)) {
			out = append(out, c)
		}
	}
	return out
}
