package protocol

import (
	"math"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

// Opinions follows every participant's reported opinion (its first value)
// from its stance: one row per round, one column per seat. The answers of
// agents with no opinion model (the Facilitator) are no opinions: a seat
// without stance or report stays unknown (NaN).
func Opinions(s *roundtable.State) (start []float64, rows [][]float64) {
	cur := make([]float64, len(s.Participants))
	for i, p := range s.Participants {
		cur[i], _ = opinion.ParseStance(p.Stance)
		if p.Stance == "" {
			cur[i] = math.NaN() // no initial belief (the no-role-play control): unknown until the first report
		}
	}
	start = append([]float64(nil), cur...)
	for _, r := range s.Rounds {
		for _, a := range r.Surveys {
			if i := s.Index(a.By); i >= 0 && len(a.Values) > 0 && !roundtable.IsNoOpinion(a.Reason) {
				cur[i] = a.Values[0]
			}
		}
		rows = append(rows, append([]float64(nil), cur...))
	}
	return start, rows
}

// Known drops the opinions not known yet (NaN): agents of the
// no-role-play control have none before their first report.
func Known(xs []float64) []float64 {
	out := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}
