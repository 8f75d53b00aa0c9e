package recommend

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
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

// A baseline predictor asked a survey reports the middle of the scale,
// marked as no opinion, rather than failing.
func TestPredictorAnswersSurveyWithNoOpinion(t *testing.T) {
	a := &PredictorAgent{Name: "always 4", Pred: 4}
	sc := roundtable.Scale{Min: 1, Max: 5, Step: 1, Items: []string{"x", "y"}}
	act, err := a.Act(context.Background(), roundtable.View{Phase: roundtable.PhaseSurvey, Scale: &sc})
	if err != nil {
		t.Fatal(err)
	}
	r, ok := act.(roundtable.Report)
	if !ok || len(r.Values) != 2 || r.Values[0] != 3 || r.Values[1] != 3 || !roundtable.IsNoOpinion(r.Reason) {
		t.Fatalf("answer %#v, want the middle 3 for both items, marked as no opinion", act)
	}
	if err := sc.Check(r.Values); err != nil {
		t.Fatal(err)
	}
}
