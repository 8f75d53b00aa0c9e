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

// Volatility is how much a judge's sentiment on an item moved over the
// rounds: the standard deviation of its trajectory. Decision: the sample
// standard deviation (n − 1), as the papers' other deviations (D of
// Opinion dynamics); a single round has volatility 0.
func Volatility(trajectory []float64) float64 { return opinion.Diversity(trajectory) }

// Conviction is the gut-feeling score of one item for one judge, as
// Sentimental Agents defines it: the final sentiment divided by its
// volatility. Decision: a judge whose sentiment never moved (volatility 0)
// is as sure as can be: +Inf or -Inf by the sign of its final sentiment,
// 0 when that is 0, so on Borda it ranks above (or below) every wavering
// view; NaN without a trajectory.
func Conviction(trajectory []float64) float64 {
	if len(trajectory) == 0 {
		return math.NaN()
	}
	final := trajectory[len(trajectory)-1]
	if vol := Volatility(trajectory); vol > 0 {
		return final / vol
	}
	switch {
	case final > 0:
		return math.Inf(1)
	case final < 0:
		return math.Inf(-1)
	}
	return 0
}
