package panel

import (
	"cmp"
	"math"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Results are a panel's outcome as a table shows it: the items, the
// rankings its decision procedures give (Sentimental Agents' Borda count
// on final sentiments, valence tiers and gut feeling), each judge's
// sentiment trajectory per item, and every survey answer. They are
// computed from a state as one viewer may see it (roundtable.Table.
// StateFor): someone who may not see others' answers gets rankings of
// their own only. A judge with no view (the Facilitator's middle of the
// scale, roundtable.IsNoOpinion) counts nowhere but in Answers.
type Results struct {
	Items []string `json:"items"`
	// Borda, Gut and Tier are per item: Borda points on the judges'
	// final sentiments (top item n, last 1, summed over judges), Borda
	// points on their conviction (Conviction), and the mean valence tier
	// (1 best, 3 worst).
	Borda []float64 `json:"borda"`
	Gut   []float64 `json:"gut"`
	Tier  []float64 `json:"tier"`
	// Judges counts the judges whose answers rank the items.
	Judges int `json:"judges"`
	// Trajectories are each judge's sentiments, by participant ID, per
	// item, one per round they answered.
	Trajectories map[string][][]float64 `json:"trajectories"`
	// Mean is the mean sentiment of the judges per item after each round
	// (a round nobody answered keeps none).
	Mean [][]float64 `json:"mean"`
	// Answers are every survey answer, in the order given.
	Answers []Answer `json:"answers"`
}

// Answer is one survey answer of a panel.
type Answer struct {
	Round  int       `json:"round"`
	By     string    `json:"by"` // participant ID
	Values []float64 `json:"values"`
	Reason string    `json:"reason,omitempty"`
	// NoView is set on an answer that states no view (IsNoOpinion).
	NoView bool `json:"no_view,omitempty"`
}

// Outcome computes the results of panel table s.
func Outcome(s *roundtable.State) Results {
	items := Items(s)
	r := Results{Items: items, Trajectories: map[string][][]float64{}}
	final := map[string][]float64{}
	for _, rd := range s.Rounds {
		sums, n := make([]float64, len(items)), 0
		for _, a := range rd.Surveys {
			noView := roundtable.IsNoOpinion(a.Reason)
			r.Answers = append(r.Answers, Answer{Round: rd.Round, By: a.By, Values: slices.Clone(a.Values), Reason: a.Reason, NoView: noView})
			if noView || len(a.Values) != len(items) {
				continue
			}
			n++
			final[a.By] = a.Values
			if r.Trajectories[a.By] == nil {
				r.Trajectories[a.By] = make([][]float64, len(items))
			}
			for i, v := range a.Values {
				sums[i] += v
				r.Trajectories[a.By][i] = append(r.Trajectories[a.By][i], v)
			}
		}
		mean := make([]float64, len(items))
		for i := range sums {
			mean[i] = sums[i] / math.Max(1, float64(n))
		}
		r.Mean = append(r.Mean, mean)
	}
	gut := map[string][]float64{}
	for judge, ts := range r.Trajectories {
		for _, t := range ts {
			gut[judge] = append(gut[judge], Conviction(t))
		}
	}
	r.Borda, r.Gut, r.Judges = Borda(final, len(items)), Borda(gut, len(items)), len(final)
	r.Tier = make([]float64, len(items))
	for i := range items {
		tiers := 0.0
		for _, v := range final {
			tiers += float64(Tier(v[i]))
		}
		r.Tier[i] = tiers / math.Max(1, float64(len(final)))
	}
	return r
}

// Order returns the item indices from best to worst by score (higher
// first, or lower first when low is set, as for tiers); ties keep the
// items' order.
func Order(score []float64, low bool) []int {
	out := make([]int, len(score))
	for i := range out {
		out[i] = i
	}
	slices.SortStableFunc(out, func(a, b int) int {
		if low {
			return cmp.Compare(score[a], score[b])
		}
		return cmp.Compare(score[b], score[a])
	})
	return out
}
