package dyads_test

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// beliefs replays a dyads log by hand: everyone starts at its stance; the
// update is applied to the recorded pairs.
func replayBeliefs(s *roundtable.State, start []float64, step func(x []float64, i, j int)) []float64 {
	x := append([]float64(nil), start...)
	for _, r := range s.Rounds {
		step(x, s.Index(r.Pair[0]), s.Index(r.Pair[1]))
	}
	return x
}

func final(s *roundtable.State, start []float64) []float64 {
	x := append([]float64(nil), start...)
	for _, r := range s.Rounds {
		for _, a := range r.Surveys {
			x[s.Index(a.By)] = a.Values[0]
		}
	}
	return x
}

func TestDeGrootDyadsMatchTheUpdateOnTheSampledPairs(t *testing.T) {
	start := []float64{-2, -1, 0, 1, 2}
	s := roundtabletest.PlayStances(t, dyads.Preset(protocol.Settings{Question: "The earth is round."}), 40,
		[]string{"-2", "-1", "0", "1", "2"}, dyads.Dyad{Rule: dyads.DeGroot})
	want := replayBeliefs(s, start, func(x []float64, i, j int) { x[j] = opinion.DeGroot(x[j], x[i], 0.5) })
	got := final(s, start)
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-3 { // the message carries 4 decimals
			t.Fatalf("final beliefs %v, by hand %v", got, want)
		}
	}
	if d0, d := opinion.Diversity(start), opinion.Diversity(got); !(d < d0/4) {
		t.Errorf("DeGroot did not pull opinions together: D %v -> %v", d0, d)
	}
}

func TestDeffuantDyadsMatchTheUpdateOnTheSampledPairs(t *testing.T) {
	start := []float64{-2, -1.5, 0, 0.5, 2}
	s := roundtabletest.PlayStances(t, dyads.Preset(protocol.Settings{TwoWay: true}), 30,
		[]string{"-2", "-1.5", "0", "0.5", "2"}, dyads.Dyad{Rule: dyads.Deffuant})
	want := replayBeliefs(s, start, func(x []float64, i, j int) { x[i], x[j] = opinion.Deffuant(x[i], x[j], 0.3, 1) })
	got := final(s, start)
	moved := false
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-3 {
			t.Fatalf("final beliefs %v, by hand %v", got, want)
		}
		moved = moved || got[i] != start[i]
	}
	if !moved {
		t.Error("nobody moved in 30 steps")
	}
	if got[0] != -2 && got[4] != 2 && math.Abs(got[0]-got[4]) < 1 {
		t.Errorf("the extremes, 4 apart, met: %v", got)
	}
}

func TestDyadValidateNamesTheBadSetting(t *testing.T) {
	if err := (dyads.Dyad{Memory: "reflective", Bias: "strong"}).Validate(); err != nil {
		t.Fatal(err)
	}
	for d, want := range map[dyads.Dyad]string{
		{Memory: "photographic"}: `memory "photographic"`,
		{Bias: "extreme"}:        `confirmation bias "extreme"`,
	} {
		if err := d.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", d, err, want)
		}
	}
}

// Offline reflective memory carries the belief as a stance level: a
// DeGroot listener at 0.4 (kept as 0) that hears 2 moves to 1, not 1.2.
func TestReflectiveDyadStartsFromItsSummaryLevel(t *testing.T) {
	v := roundtable.View{Phase: roundtable.PhaseSurvey, Self: roundtable.Participant{ID: "j"}, Scale: &roundtable.Scale{Min: -2, Max: 2},
		History: []roundtable.RoundRecord{{Round: 1, Surveys: []roundtable.SurveyAnswer{{By: "j", Values: []float64{0.4}}}}},
		Current: roundtable.RoundRecord{Round: 2, Messages: []roundtable.Message{{From: "i", To: []string{"j"}, Text: `On "q" my belief is 2.0000 on the scale from -2 (false) to 2 (true).`}}}}
	for mem, want := range map[string]float64{"": 1.2, "reflective": 1} {
		a, err := dyads.Dyad{Rule: dyads.DeGroot, Memory: mem}.Act(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.(roundtable.Report).Values[0]; math.Abs(got-want) > 1e-9 {
			t.Errorf("memory %q: %v, want %v", mem, got, want)
		}
	}
}
