package panel

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func meter(t *testing.T) *Meter {
	t.Helper()
	m, err := NewMeter(nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// idf is HashedTFIDF's smoothed inverse document frequency.
func idf(n, df float64) float64 { return math.Log((1+n)/(1+df)) + 1 }

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestKeywordsDropStopWordsNumbersAndPlurals(t *testing.T) {
	got := keywords("Ann's budgets were cut by 30% in the projects.", nil)
	if want := []string{"ann", "budget", "cut", "project"}; !slices.Equal(got, want) {
		t.Errorf("keywords %q, want %q", got, want)
	}
	if got := meter(t).Keywords("An excellent, terrible pipeline."); !slices.Equal(got, []string{"pipeline"}) {
		t.Errorf("sentiment words are not topics: %q", got)
	}
}

// Nuance is the distinct words among the top 10 words of 5 LDA topics:
// the keywords {ran, pipeline, team} and {pipeline, budget} make a
// vocabulary of 4 (the item's name and "excellent" are no keywords), so
// every topic's top 10 is all of it, whatever the sampler drew.
func TestNuanceCountsTheTopWordsOfLDATopics(t *testing.T) {
	args := []string{"Ann ran the pipeline team.", "Ann's pipeline budgets.", "Ann is excellent."}
	for seed := range uint64(3) {
		if n, err := meter(t).Nuance(args, []string{"Ann", "Ben"}, seed); err != nil || n != 4 {
			t.Errorf("seed %d: nuance %d (%v), want 4", seed, n, err)
		}
	}
	if n, err := meter(t).Nuance([]string{"Ann is excellent."}, []string{"Ann"}, 1); err != nil || n != 0 {
		t.Errorf("no keywords: nuance %d (%v), want 0", n, err)
	}
}

// Two models share "pipeline" (in both texts: IDF 1) and differ in
// "budget" and "schedule" (one text each: IDF ln(3/2)+1), so their cosine is
// 1/(1+idf²) and the drift of [m1, m2] is 1 − that.
func TestDriftIsOneMinusCosineOfSuccessiveModels(t *testing.T) {
	m1 := roundtable.SelfModel{Description: "pipeline", Priorities: "budget"}
	m2 := roundtable.SelfModel{Description: "pipeline", Priorities: "schedule"}
	d, ok, err := meter(t).Drift(context.Background(), []roundtable.SelfModel{m1, m2})
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	w := idf(2, 1)
	if want := 1 - 1/(1+w*w); !near(d, want) {
		t.Errorf("drift %v, want %v", d, want)
	}
	if _, ok, _ := meter(t).Drift(context.Background(), []roundtable.SelfModel{m1}); ok {
		t.Error("one model has a drift")
	}
}

// Three runs' statements: "pipeline" in all three (IDF 1), "budget" in two,
// "schedule" in one; runs 1 and 3 are the same text.
func TestPlatitudeIsTheMeanPairwiseCosine(t *testing.T) {
	p, ok, err := meter(t).Platitude(context.Background(), []string{"pipeline budget", "pipeline schedule", "pipeline budget"}, nil)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	b, s := idf(3, 2), idf(3, 1)
	c := 1 / (math.Sqrt(1+b*b) * math.Sqrt(1+s*s))
	if want := (1 + 2*c) / 3; !near(p, want) {
		t.Errorf("platitude %v, want %v", p, want)
	}
}

// The first argument shares "pipeline" with the document's first passage
// (IDF over the 4 texts embedded: ln(5/3)+1 for a word in two, ln(5/2)+1
// for a word in one); the second has no topic word and is unsupported.
func TestDefensibilityIsTheBestPassageAboveTheThreshold(t *testing.T) {
	doc := "Ann built the data pipeline. Ann managed a budget of two million."
	sc, err := meter(t).Defensibility(context.Background(), []string{"Ann's pipeline work in Kafka.", "Ann is excellent."}, doc, []string{"Ann"})
	if err != nil {
		t.Fatal(err)
	}
	two, one := idf(4, 2), idf(4, 1)
	want := two * two / (two*two + 2*one*one)
	if len(sc) != 2 || !near(sc[0], want) || sc[1] != 0 {
		t.Errorf("scores %v, want [%v 0]", sc, want)
	}
}

// Judges a and b on one item over three rounds, by hand: points (-0.4,
// -0.2) and (-0.1, 0.1) are negative peers, slope (0.08-0.01)/0.17;
// (0.2, 0.3) is the one positive point, slope 1.5: saliency.
func TestBiasSlopesByHand(t *testing.T) {
	s := &roundtable.State{Rounds: []roundtable.RoundRecord{
		{Round: 1, Surveys: []roundtable.SurveyAnswer{{By: "a", Values: []float64{0.2}}, {By: "b", Values: []float64{-0.4}}}},
		{Round: 2, Surveys: []roundtable.SurveyAnswer{{By: "a", Values: []float64{0}}, {By: "b", Values: []float64{-0.1}}}},
		{Round: 3, Surveys: []roundtable.SurveyAnswer{{By: "a", Values: []float64{0.1}}, {By: "b", Values: []float64{0.2}}}},
	}}
	pts := BiasPoints(s)
	if len(pts) != 4 {
		t.Fatalf("points %v", pts)
	}
	f := Fit(pts)
	if !near(f.Negative, 0.07/0.17) || !near(f.Positive, 1.5) || f.NNegative != 2 || f.NPositive != 1 || f.Bias() != "saliency" {
		t.Errorf("slopes %+v, bias %q", f, f.Bias())
	}
}

func TestOfflineModelsComeFromTheRoleVocabulary(t *testing.T) {
	m := Generate("CFO")
	if m.Source != SourceVocabulary || m.Criteria[0] != "cost awareness and budget discipline" || len(m.Criteria) != 3 || m.Check() != nil {
		t.Errorf("CFO model %+v", m)
	}
	r := Restate("CFO", []string{"What about financial risk? Risk management matters."})
	if want := []string{"financial risk management", "cost awareness and budget discipline", "measurable return on past projects"}; !slices.Equal(r.Criteria, want) {
		t.Errorf("restated criteria %q, want %q", r.Criteria, want)
	}
	if r.Description != m.Description {
		t.Errorf("the description changed: %q -> %q", m.Description, r.Description)
	}
	if g := Generate("Chief Happiness Officer"); g.Criteria[0] != "relevant experience" {
		t.Errorf("an unknown role: %+v", g)
	}
}
