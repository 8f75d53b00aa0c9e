package exchange

import (
	"math"
	"math/rand/v2"
	"sort"
)

// consensus is the allocation the agents concede toward: consensusFloor of
// every good is shared equally (Cobb-Douglas is 0 at 0), the rest goes in
// proportion to the squared weights, so mostly to whoever values it most.
// It depends only on w, so agents who know the same weights compute the same
// allocation bit for bit, and their proposals merge.
func consensus(w [][]float64, supply float64) Allocation {
	k := len(w)
	a := make(Allocation, k)
	for i := range a {
		a[i] = make([]float64, k)
	}
	for g := 0; g < k; g++ {
		sum := 0.0
		for i := 0; i < k; i++ {
			sum += w[i][g] * w[i][g]
		}
		for i := 0; i < k; i++ {
			p := 1 / float64(k)
			if sum > 0 {
				p = w[i][g] * w[i][g] / sum
			}
			a[i][g] = supply * (consensusFloor/float64(k) + (1-consensusFloor)*p)
		}
	}
	return a
}

// anchor is the agent's opening: of each good it keeps a share between the
// equal 1/K and all of it, further toward all the more it values the good
// (greed of the way for its favourite), and gives the rest to the others in
// the consensus's proportions.
func (s Strategy) anchor(target Allocation, rng *rand.Rand) Allocation {
	k, supply := s.Economy.K, s.Economy.Supply
	own := s.publicWeights()
	top := 0.0
	for _, x := range own {
		top = math.Max(top, x)
	}
	g := greed + greedJitter*(2*rng.Float64()-1)
	a := make(Allocation, k)
	for i := range a {
		a[i] = make([]float64, k)
	}
	for good := 0; good < k; good++ {
		keep := 1 / float64(k)
		if top > 0 {
			keep += (1 - 1/float64(k)) * g * own[good] / top
		}
		keep = math.Min(1, math.Max(0, keep+shareJitter*(2*rng.Float64()-1)))
		a[s.Self][good] = keep * supply
		others := 0.0
		for i := range a {
			if i != s.Self {
				others += target[i][good]
			}
		}
		for i := range a {
			if i == s.Self {
				continue
			}
			share := 1 / float64(k-1)
			if others > 0 {
				share = target[i][good] / others
			}
			a[i][good] = (1 - keep) * supply * share
		}
	}
	return a
}

// mix is (1-t)*a + t*b.
func mix(a, b Allocation, t float64) Allocation {
	out := make(Allocation, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
		for g := range a[i] {
			out[i][g] = (1-t)*a[i][g] + t*b[i][g]
		}
	}
	return out
}

// roundCents rounds every amount to 0.01 keeping each good's total exact
// (largest remainder, ties to the lower agent), so proposals read well. A
// supply that is not a whole number of cents is left unrounded.
func roundCents(a Allocation, supply float64) Allocation {
	total := math.Round(supply * 100)
	if math.Abs(total-supply*100) > 1e-6 || len(a) == 0 {
		return a
	}
	out := make(Allocation, len(a))
	for i := range a {
		out[i] = make([]float64, len(a[i]))
	}
	quota := make([]float64, len(a))
	for g := range a[0] {
		for i := range a {
			quota[i] = a[i][g] * 100
		}
		for i, c := range largestRemainder(quota, int(total)) {
			out[i][g] = float64(c) / 100
		}
	}
	return out
}

// largestRemainder rounds non-negative quotas that sum to about total into
// integers that sum to exactly total: floors first, then one more to the
// largest fractional parts (ties to the lower index).
func largestRemainder(quota []float64, total int) []int {
	out := make([]int, len(quota))
	if len(quota) == 0 {
		return out
	}
	order := make([]int, len(quota))
	left := total
	for i, q := range quota {
		out[i] = int(math.Floor(q))
		left -= out[i]
		order[i] = i
	}
	frac := func(i int) float64 { return quota[i] - math.Floor(quota[i]) }
	sort.SliceStable(order, func(x, y int) bool { return frac(order[x]) > frac(order[y]) })
	for n := 0; left > 0; n, left = n+1, left-1 {
		out[order[n%len(order)]]++
	}
	return out
}
