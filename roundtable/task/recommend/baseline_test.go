package recommend

import (
	"math/rand/v2"
	"testing"
)

// randomGuess predicts a uniform random whole rating, a floor every
// baseline must clear.
type randomGuess struct{ rng *rand.Rand }

func (r randomGuess) Predict(user, movie int) float64 { return float64(1 + r.rng.IntN(5)) }

func TestBaselinesBeatRandomGuessing(t *testing.T) {
	ds := loadSynthetic(t, 200, 300, 11)
	cases := Cases(ds, 0, 1)
	randMAE, randRMSE := Evaluate(randomGuess{rand.New(rand.NewPCG(1, 1))}, cases)
	fourMAE, fourRMSE := Evaluate(AlwaysFour, cases)
	knnMAE, knnRMSE := Evaluate(NewKNN(ds, ds.Factors(), 0), cases)
	t.Logf("%d cases, %d training ratings", len(cases), len(ds.Train))
	t.Logf("random:   MAE %.3f RMSE %.3f", randMAE, randRMSE)
	t.Logf("always 4: MAE %.3f RMSE %.3f", fourMAE, fourRMSE)
	t.Logf("kNN:      MAE %.3f RMSE %.3f", knnMAE, knnRMSE)
	if fourMAE >= randMAE || fourRMSE >= randRMSE {
		t.Errorf("always 4 (%.3f/%.3f) does not beat random (%.3f/%.3f)", fourMAE, fourRMSE, randMAE, randRMSE)
	}
	if knnMAE >= fourMAE || knnRMSE >= fourRMSE {
		t.Errorf("kNN (%.3f/%.3f) does not beat always 4 (%.3f/%.3f)", knnMAE, knnRMSE, fourMAE, fourRMSE)
	}
}
