package recommend

import (
	"fmt"
	"math"
)

// Pair is a prediction and the true rating.
type Pair struct {
	Pred, Truth float64
}

// MAE is the mean absolute error of the pairs, NaN when there are none.
func MAE(pairs []Pair) float64 {
	var sum float64
	for _, p := range pairs {
		sum += math.Abs(p.Pred - p.Truth)
	}
	return sum / float64(len(pairs))
}

// RMSE is the root mean squared error of the pairs, NaN when there are none.
func RMSE(pairs []Pair) float64 {
	var sum float64
	for _, p := range pairs {
		sum += (p.Pred - p.Truth) * (p.Pred - p.Truth)
	}
	return math.Sqrt(sum / float64(len(pairs)))
}

// RoundScore is the accuracy of a run of cases at one round.
type RoundScore struct {
	Round    int     // 1-based
	MAE      float64 // over all cases, undecided ones scored as the fallback
	RMSE     float64
	Coverage float64 // share of cases with a decision
	// DecidedMAE is the MAE over decided cases only, NaN when none is.
	DecidedMAE float64
}

// PerRound scores a run round by round. preds[c][r] is the decision of case
// c after round r+1, NaN when there is none yet; truth[c] is the true
// rating. A case with fewer rounds than the longest keeps its last value
// (a closed table's decision stands). An undecided case is scored as if it
// had predicted fallback (4 for the "always 4" baseline), so every round
// scores every case; Coverage says how many really decided.
func PerRound(preds [][]float64, truth []float64, fallback float64) ([]RoundScore, error) {
	if len(preds) != len(truth) {
		return nil, fmt.Errorf("per-round scores: %d cases of predictions, %d true ratings", len(preds), len(truth))
	}
	rounds := 0
	for _, p := range preds {
		rounds = max(rounds, len(p))
	}
	scores := make([]RoundScore, rounds)
	for r := range scores {
		all, decided := make([]Pair, len(truth)), []Pair(nil)
		for c, p := range preds {
			x := math.NaN()
			if len(p) > 0 {
				x = p[min(r, len(p)-1)]
			}
			if !math.IsNaN(x) {
				decided = append(decided, Pair{x, truth[c]})
			} else {
				x = fallback
			}
			all[c] = Pair{x, truth[c]}
		}
		scores[r] = RoundScore{Round: r + 1, MAE: MAE(all), RMSE: RMSE(all),
			Coverage: float64(len(decided)) / float64(len(all)), DecidedMAE: MAE(decided)}
	}
	return scores, nil
}
