package roundtable_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestScaleMiddleIsOnTheScale(t *testing.T) {
	cases := []struct {
		s    roundtable.Scale
		want float64
	}{
		{roundtable.Scale{Min: -2, Max: 2}, 0},
		{roundtable.Scale{Min: 1, Max: 5, Step: 1}, 3},
		{roundtable.Scale{Min: 1, Max: 4, Step: 1}, 2}, // 2.5 is off the steps: the step below
		{roundtable.Scale{Min: -1, Max: 1, Items: []string{"a", "b"}}, 0},
	}
	for _, c := range cases {
		got := c.s.Middle()
		if len(got) != c.s.Values() || got[0] != c.want || c.s.Check(got) != nil {
			t.Errorf("%+v: middle %v, want %g per item and on the scale", c.s, got, c.want)
		}
	}
}

// Survey answers of agents with no opinion model are no views: the stop
// rules and measures reading a round's answers do not see them.
func TestAnswersLeaveNoOpinionOut(t *testing.T) {
	sc := roundtable.Scale{Min: -2, Max: 2}
	no := roundtable.NoOpinion(sc, "a trader")
	s := &roundtable.State{Rounds: []roundtable.RoundRecord{{Round: 1, Surveys: []roundtable.SurveyAnswer{
		{By: "ann", Values: []float64{2}}, {By: "bot", Values: no.Values, Reason: no.Reason}}}}}
	got := s.Answers(1)
	if len(got) != 1 || got["ann"][0] != 2 {
		t.Errorf("answers %v, want Ann's only", got)
	}
	if !roundtable.IsNoOpinion(no.Reason) || roundtable.IsNoOpinion("I have no opinion model of my own, honestly") {
		t.Error("IsNoOpinion does not tell the marked reason from a free one")
	}
}
