package agent

import (
	"context"
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// panelSurveyView is Alice's survey view on a panel with alpha 0.3 in the
// given round; earlier holds her recorded answers of the rounds before.
func panelSurveyView(round int, earlier ...[]float64) roundtable.View {
	v := roundtable.View{Table: "p1", Self: people[0], Participants: people[:2], Round: round, Rounds: 5,
		Phase: roundtable.PhaseSurvey, Protocol: "panel", Params: map[string]string{"alpha": "0.3"},
		Briefing: &roundtable.Briefing{Smoothing: roundtable.Smoothing{Param: "alpha", Default: 0.5}},
		Scale:    &roundtable.Scale{Question: "Whom to hire?", Min: -1, Max: 1, Items: []string{"Ann", "Ben"}}}
	for r, vals := range earlier {
		v.History = append(v.History, roundtable.RoundRecord{Round: r + 1,
			Surveys: []roundtable.SurveyAnswer{{By: "b", Values: []float64{-1, 1}}, {By: "a", Values: vals}}})
	}
	return v
}

func TestPanelJudgeRecordsTheAlphaUpdateOfItsReportedSentiment(t *testing.T) {
	llm := answers(`{"reasoning":"Ann looks strong.","values":[0.8,-0.4]}`, `{"reasoning":"Ben grew on me.","values":[0.2,0.6]}`)
	a := newAgent(llm, Options{})
	first, err := a.Act(context.Background(), panelSurveyView(1))
	if err != nil {
		t.Fatal(err)
	}
	r1 := first.(roundtable.Report)
	// Round 1: no previous answer, so S_i = S_O.
	checkValues(t, "round 1", r1.Values, []float64{0.8, -0.4})
	second, err := a.Act(context.Background(), panelSurveyView(2, r1.Values))
	if err != nil {
		t.Fatal(err)
	}
	r2 := second.(roundtable.Report)
	// Round 2: 0.3*0.2 + 0.7*0.8 = 0.62 and 0.3*0.6 + 0.7*(-0.4) = -0.10.
	checkValues(t, "round 2", r2.Values, []float64{0.62, -0.10})
	so, ok := ObservedSentiment(r2.Reason)
	if !ok {
		t.Fatalf("reason %q keeps no S_O", r2.Reason)
	}
	checkValues(t, "S_O of round 2", so, []float64{0.2, 0.6})
	if want := "Ben grew on me. [S_O 0.2 0.6; S_i = 0.3·S_O + 0.7·S_i(t−1)]"; r2.Reason != want {
		t.Errorf("reason %q, want %q", r2.Reason, want)
	}
}

func TestPanelAlphaDefaultsAndOtherSurveysAreLeftAlone(t *testing.T) {
	v := panelSurveyView(2, []float64{1, -1})
	v.Params = nil // no recorded alpha: the paper's 0.5
	got, err := newAgent(answers(`{"reasoning":"","values":[0,0]}`), Options{}).Act(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	checkValues(t, "default alpha", got.(roundtable.Report).Values, []float64{0.5, -0.5})
	v.Protocol, v.Briefing = "questionnaire", &roundtable.Briefing{}
	got, err = newAgent(answers(`{"reasoning":"r","values":[0,0]}`), Options{}).Act(context.Background(), v)
	if err != nil {
		t.Fatal(err)
	}
	if r := got.(roundtable.Report); r.Values[0] != 0 || r.Reason != "r" {
		t.Errorf("a survey off the panel was changed: %+v", r)
	}
	if _, ok := ObservedSentiment("sentiment of my own statement, updated"); ok {
		t.Error("a reason without S_O reads as one")
	}
}

func checkValues(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Errorf("%s: %v, want %v", what, got, want)
			return
		}
	}
}
