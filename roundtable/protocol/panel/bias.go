package panel

import (
	"maps"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
)

// Point is one observation of the cognitive-bias regression: X the
// peers' recent sentiment on an item, Y the judge's sentiment change.
type Point struct{ X, Y float64 }

// BiasPoints are a panel table's observations (docs/protocol.md#cognitive-bias).
// Decision: for judge i, item k and round t ≥ 2 where i reported in both
// t−1 and t, Y = S_ik(t) − S_ik(t−1) (signed), and X = the mean of the
// other judges' reports S_jk(t−1): the latest sentiment of its peers
// before i's update, since reports of round t are simultaneous. Rounds
// where no peer reported in t−1 give no point.
func BiasPoints(s *roundtable.State) []Point {
	var out []Point
	for t := 2; t <= len(s.Rounds); t++ {
		before, now := s.Answers(t-1), s.Answers(t)
		for _, id := range slices.Sorted(maps.Keys(now)) {
			vs := now[id]
			prev, ok := before[id]
			if !ok || len(prev) != len(vs) {
				continue
			}
			for k := range vs {
				if x, ok := peerMean(before, id, k); ok {
					out = append(out, Point{X: x, Y: vs[k] - prev[k]})
				}
			}
		}
	}
	return out
}

func peerMean(answers map[string][]float64, self string, k int) (float64, bool) {
	sum, n := 0.0, 0
	for _, id := range slices.Sorted(maps.Keys(answers)) {
		if vs := answers[id]; id != self && k < len(vs) {
			sum += vs[k]
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// Fit fits the bias slopes over pts (audit.FitSlopes): OLS through the
// origin of Y on X, apart for negative peers (X < 0) and positive peers
// (X > 0); a slope with no data is NaN. audit.Slopes.Bias names the bias.
func Fit(pts []Point) audit.Slopes {
	x, y := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		x[i], y[i] = p.X, p.Y
	}
	return audit.FitSlopes(x, y)
}
