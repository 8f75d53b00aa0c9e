package audit

import (
	"math"
	"sort"
)

// Slopes are the cognitive-bias slopes of Sentimental Agents (docs/protocol.md#cognitive-bias): OLS through the origin of a participant's sentiment change
// S_i(t) − S_i(t−1) on its peers' recent sentiment, fitted apart for
// negative and positive peers. A slope is NaN when it has no data.
type Slopes struct {
	Positive  float64 `json:"positive"`
	Negative  float64 `json:"negative"`
	NPositive int     `json:"n_positive"`
	NNegative int     `json:"n_negative"`
	// R2Positive and R2Negative are each fit's strength, the R² the paper
	// reads beside the slopes: for a line through the origin the
	// uncentred R² = 1 − Σ(y − bx)² / Σy² (NaN without data, or when every
	// y is 0).
	R2Positive float64 `json:"r2_positive"`
	R2Negative float64 `json:"r2_negative"`
}

// Bias names what the slopes suggest: "saliency" when a slope exceeds 1,
// else "positivity" or "negativity" by the steeper slope, "" when either
// is missing.
func (s Slopes) Bias() string {
	switch {
	case math.IsNaN(s.Positive) || math.IsNaN(s.Negative):
		return ""
	case s.Positive > 1 || s.Negative > 1:
		return "saliency"
	case s.Positive > s.Negative:
		return "positivity"
	case s.Negative > s.Positive:
		return "negativity"
	}
	return ""
}

// biasPoint is one observation: x = the mean opinion sentiment S_O of the
// peers' messages since the participant last spoke, y = its change.
type biasPoint struct{ x, y float64 }

// Decision: "peers' recent sentiment" is the mean S_O of the other
// participants' messages posted after the participant's previous scored
// message and before its current one; a change with no peer message in
// between is not an observation. Negative peers are x < 0, positive x > 0.
func (t *Table) biasPoints() map[string][]biasPoint {
	type said struct {
		seq   uint64
		who   string
		score float64
	}
	var all []said
	for _, p := range t.Participants {
		for _, m := range p.Messages {
			if m.HasScore {
				all = append(all, said{m.Seq, p.ID, m.Score})
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	out := map[string][]biasPoint{}
	for _, p := range t.Participants {
		var prev *Message
		for i := range p.Messages {
			m := &p.Messages[i]
			if !m.HasScore {
				continue
			}
			if prev != nil {
				sum, n := 0.0, 0
				for _, s := range all {
					if s.seq > prev.Seq && s.seq < m.Seq && s.who != p.ID {
						sum += s.score
						n++
					}
				}
				if n > 0 {
					out[p.ID] = append(out[p.ID], biasPoint{sum / float64(n), m.S - prev.S})
				}
			}
			prev = m
		}
	}
	return out
}

// fitSlopes fits both slopes over pts.
func fitSlopes(pts []biasPoint) Slopes {
	x, y := make([]float64, len(pts)), make([]float64, len(pts))
	for i, pt := range pts {
		x[i], y[i] = pt.x, pt.y
	}
	return FitSlopes(x, y)
}

// FitSlopes fits both slopes over the observations (x[i], y[i]): x the
// peers' sentiment, y the change; points with x = 0 are neither negative
// nor positive peers.
func FitSlopes(x, y []float64) Slopes {
	var px, py, nx, ny []float64
	for i := range x {
		switch {
		case x[i] > 0:
			px, py = append(px, x[i]), append(py, y[i])
		case x[i] < 0:
			nx, ny = append(nx, x[i]), append(ny, y[i])
		}
	}
	s := Slopes{NPositive: len(px), NNegative: len(nx)}
	s.Positive, s.R2Positive = fitOrigin(px, py)
	s.Negative, s.R2Negative = fitOrigin(nx, ny)
	return s
}

// fitOrigin is the slope through the origin and its uncentred R², NaN
// where undefined.
func fitOrigin(x, y []float64) (b, r2 float64) {
	b, err := OLSOrigin(x, y)
	if err != nil {
		return math.NaN(), math.NaN()
	}
	var res, tot float64
	for i := range x {
		res += (y[i] - b*x[i]) * (y[i] - b*x[i])
		tot += y[i] * y[i]
	}
	if tot == 0 {
		return b, math.NaN()
	}
	return b, 1 - res/tot
}

// Slopes returns each participant's bias slopes.
func (t *Table) Slopes() map[string]Slopes {
	out := map[string]Slopes{}
	for id, pts := range t.biasPoints() {
		out[id] = fitSlopes(pts)
	}
	return out
}
