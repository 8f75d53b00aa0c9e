package panel

import (
	"math"
	"sort"

	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

// Borda ranks items from each judge's final sentiments (judge -> one value
// per item): on each judge's order the top item gets n points and the last
// 1; ties on a judge's list share the mean of their points. It returns the
// totals per item index.
func Borda(final map[string][]float64, n int) []float64 {
	totals := make([]float64, n)
	for _, vs := range final {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return vs[order[a]] > vs[order[b]] })
		for pos := 0; pos < n; {
			end := pos
			for end+1 < n && vs[order[end+1]] == vs[order[pos]] {
				end++
			}
			pts := 0.0
			for k := pos; k <= end; k++ {
				pts += float64(n - k)
			}
			for k := pos; k <= end; k++ {
				totals[order[k]] += pts / float64(end-pos+1)
			}
			pos = end + 1
		}
	}
	return totals
}

// Tier is the valence tier of a sentiment: 1 when above 0.5, 3 when below
// -0.5, else 2 (docs/protocol.md#rankings).
func Tier(s float64) int {
	switch {
	case s > 0.5:
		return 1
	case s < -0.5:
		return 3
	}
	return 2
}

// Conviction is the gut-feeling score of one item for one judge: the final
// sentiment discounted by its volatility over the rounds.
// Decision: conviction = final - sign(final) * std(trajectory), so a
// steady opinion keeps its strength and a wavering one loses it.
func Conviction(trajectory []float64) float64 {
	if len(trajectory) == 0 {
		return math.NaN()
	}
	final := trajectory[len(trajectory)-1]
	vol := opinion.Diversity(trajectory)
	switch {
	case final > 0:
		return math.Max(0, final-vol)
	case final < 0:
		return math.Min(0, final+vol)
	}
	return 0
}
