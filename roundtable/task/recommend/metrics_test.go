package recommend

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 || (math.IsNaN(a) && math.IsNaN(b)) }

func TestErrorMetrics(t *testing.T) {
	tests := []struct {
		name      string
		pairs     []Pair
		mae, rmse float64
	}{
		{"exact", []Pair{{4, 4}, {2, 2}}, 0, 0},
		{"one off each way", []Pair{{4, 5}, {3, 2}}, 1, 1},
		{"rmse punishes large errors", []Pair{{1, 5}, {3, 3}}, 2, math.Sqrt(8)},
		{"mixed", []Pair{{4, 1}, {4, 5}, {4, 4}, {4, 2}}, 1.5, math.Sqrt(14.0 / 4)},
		{"empty is NaN", nil, math.NaN(), math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := MAE(tt.pairs); !near(got, tt.mae) {
				t.Errorf("MAE = %v, want %v", got, tt.mae)
			}
			if got := RMSE(tt.pairs); !near(got, tt.rmse) {
				t.Errorf("RMSE = %v, want %v", got, tt.rmse)
			}
		})
	}
}

func TestPerRoundScoresUndecidedAsFallback(t *testing.T) {
	nan := math.NaN()
	preds := [][]float64{
		{nan, 5, 5}, // decides at round 2, exactly right
		{nan, nan},  // never decides; closed after round 2
		{2},         // decides at once and closes
	}
	truth := []float64{5, 1, 3}
	got, err := PerRound(preds, truth, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := []RoundScore{
		{Round: 1, MAE: (1 + 3 + 1) / 3.0, RMSE: math.Sqrt(11 / 3.0), Coverage: 1 / 3.0, DecidedMAE: 1},
		{Round: 2, MAE: (0 + 3 + 1) / 3.0, RMSE: math.Sqrt(10 / 3.0), Coverage: 2 / 3.0, DecidedMAE: 0.5},
		{Round: 3, MAE: (0 + 3 + 1) / 3.0, RMSE: math.Sqrt(10 / 3.0), Coverage: 2 / 3.0, DecidedMAE: 0.5},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d rounds, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Round != w.Round || !near(g.MAE, w.MAE) || !near(g.RMSE, w.RMSE) || !near(g.Coverage, w.Coverage) || !near(g.DecidedMAE, w.DecidedMAE) {
			t.Errorf("round %d = %+v, want %+v", i+1, g, w)
		}
	}
	if _, err := PerRound(preds, truth[:2], 4); err == nil {
		t.Error("PerRound accepted 3 cases with 2 true ratings")
	}
}
