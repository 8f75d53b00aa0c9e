package offline_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/offline"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// play runs a table of the protocol with one agent for every seat.
func play(t *testing.T, pr *roundtable.Protocol, rounds int, stances []string, ag roundtable.Agent) *roundtable.State {
	t.Helper()
	ps := make([]roundtable.Participant, len(stances))
	agents := map[string]roundtable.Agent{}
	for i, st := range stances {
		ps[i] = roundtable.Participant{ID: fmt.Sprintf("a%d", i+1), Name: fmt.Sprintf("Agent %d", i+1), Kind: roundtable.Bot, Stance: st}
		agents[ps[i].ID] = ag
	}
	return roundtabletest.PlayProtocol(t, pr, rounds, 9, ps, agents)
}

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
	s := play(t, roundtable.Dyads(roundtable.PresetOptions{Question: "The earth is round."}), 40,
		[]string{"-2", "-1", "0", "1", "2"}, offline.Dyad{Rule: offline.DeGroot})
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
	s := play(t, roundtable.Dyads(roundtable.PresetOptions{TwoWay: true}), 30,
		[]string{"-2", "-1.5", "0", "0.5", "2"}, offline.Dyad{Rule: offline.Deffuant})
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

func TestPersonasKeepTheirStance(t *testing.T) {
	stances := []string{"strongly agree", "slightly agree", "neutral", "strongly disagree"}
	s := play(t, roundtable.Chatroom(roundtable.PresetOptions{Question: "taxes should rise"}), 8, stances, offline.Persona{})
	last := s.Rounds[len(s.Rounds)-1]
	private := 0
	for _, m := range last.Messages {
		if m.Private {
			private++
		}
	}
	if private != 3 {
		t.Errorf("%d private messages after the last message, want 3 (all but the last speaker)", private)
	}
	if len(last.Surveys) != 4 {
		t.Fatalf("%d self-reports", len(last.Surveys))
	}
	for _, a := range last.Surveys {
		want, _ := opinion.ParseStance(stances[s.Index(a.By)])
		if a.Values[0] != want {
			t.Errorf("%s reports %v, assigned %v", a.By, a.Values[0], want)
		}
	}
	public := 0
	for _, r := range s.Rounds {
		for _, m := range r.Messages {
			if !m.Private {
				public++
			}
		}
	}
	if public != 8 {
		t.Errorf("%d public messages in 8 rounds", public)
	}
}

func TestEvaluatorsConvergeOnSentiment(t *testing.T) {
	pr := roundtable.Panel(roundtable.PresetOptions{Items: []string{"Ann", "Ben", "Cy"}, Tolerance: 1e-3})
	ev := &offline.Evaluator{Vader: sentiment.NewVader()}
	s := play(t, pr, 30, []string{"", "", ""}, ev)
	if s.EndReason != roundtable.EndConvergence {
		t.Fatalf("ended by %q after %d rounds", s.EndReason, len(s.Rounds))
	}
	v := sentiment.NewVader()
	r1 := s.Rounds[0]
	for _, a := range r1.Surveys {
		if len(a.Values) != 3 {
			t.Fatalf("%s reports %v", a.By, a.Values)
		}
		// In round 1 a judge reports S_O of its own statement on each item.
		var own string
		for _, m := range r1.Messages {
			if m.From == a.By {
				own = m.Text
			}
		}
		if got := v.Polarity(firstSentence(own)).Compound; got != a.Values[0] {
			t.Errorf("%s: reported %v for Ann, VADER reads %v in %q", a.By, a.Values[0], got, own)
		}
	}
}

func firstSentence(s string) string {
	for i, c := range s {
		if c == '.' {
			return s[:i+1]
		}
	}
	return s
}

func TestDyadValidateNamesTheBadSetting(t *testing.T) {
	if err := (offline.Dyad{Memory: "reflective", Bias: "strong"}).Validate(); err != nil {
		t.Fatal(err)
	}
	for d, want := range map[offline.Dyad]string{
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
		a, err := offline.Dyad{Rule: offline.DeGroot, Memory: mem}.Act(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.(roundtable.Report).Values[0]; math.Abs(got-want) > 1e-9 {
			t.Errorf("memory %q: %v, want %v", mem, got, want)
		}
	}
}
