package panel_test

import (
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestBordaHandComputed(t *testing.T) {
	got := panel.Borda(map[string][]float64{"a": {.9, .1, -.5}, "b": {.2, .2, .8}}, 3)
	want := []float64{4.5, 3.5, 4}
	for i := range want {
		if !near(got[i], want[i]) {
			t.Fatalf("Borda = %v, want %v", got, want)
		}
	}
	if panel.Tier(.6) != 1 || panel.Tier(.5) != 2 || panel.Tier(-.51) != 3 {
		t.Error("tiers")
	}
}

// Conviction is the final sentiment over its volatility (the sample
// standard deviation across rounds). A: (.3, .9), SD sqrt(.18) = .4243,
// conviction .9/.4243 = 2.1213; B: (.3, .4), SD sqrt(.005) = .0707,
// conviction .4/.0707 = 5.6569. The gut feeling ranks B above A; the
// earlier rule (final − sign·SD: .4757 against .3293) ranked A first.
func TestConvictionIsFinalOverVolatility(t *testing.T) {
	a, b := panel.Conviction([]float64{.3, .9}), panel.Conviction([]float64{.3, .4})
	if !near(a, .9/math.Sqrt(.18)) || !near(b, .4/math.Sqrt(.005)) {
		t.Errorf("convictions %v %v, want 2.1213 and 5.6569", a, b)
	}
	if v := panel.Volatility([]float64{.3, .9}); !near(v, math.Sqrt(.18)) {
		t.Errorf("volatility %v", v)
	}
	if got := panel.Borda(map[string][]float64{"judge": {a, b}}, 2); got[0] != 1 || got[1] != 2 {
		t.Errorf("gut-feeling points %v, want B on top", got)
	}
	if c := panel.Conviction([]float64{.8, .8, .8}); !math.IsInf(c, 1) {
		t.Errorf("a steady positive opinion's conviction = %v, want +Inf", c)
	}
	if c := panel.Conviction([]float64{-.5}); !math.IsInf(c, -1) {
		t.Errorf("one negative round's conviction = %v, want -Inf", c)
	}
	if c := panel.Conviction([]float64{0, 0}); c != 0 {
		t.Errorf("a steady neutral conviction = %v, want 0", c)
	}
	if c := panel.Conviction([]float64{-.8, .8}); !near(c, .8/math.Sqrt(1.28)) {
		t.Errorf("a flip's conviction = %v", c)
	}
}

// Tables 4 to 9 of a hand-made panel, two judges and three items over two
// rounds. CFO: Ann (.2, .6), Ben (.4, .4), Cy (-.8, -.6). Final .6 .4
// -.6: places 1 2 3; valence 1 0 -1; volatility sqrt(.08) = .2828, 0,
// .1414; conviction 2.1213, +Inf, -4.2426: gut places 2 1 3. VP: Ann
// (.1, .1), Ben (.3, .5), Cy (.3, .5): Ben and Cy share place 1.
func TestJudgementsAreTheTablesOfEachJudge(t *testing.T) {
	s := &roundtable.State{ID: "p-0001", Config: roundtable.Config{Rounds: 2, Protocol: panel.Preset(protocol.Settings{Items: []string{"Ann", "Ben", "Cy"}})},
		Participants: []roundtable.Participant{{ID: "a", Name: "VP"}, {ID: "b", Name: "CFO"}},
		Rounds: []roundtable.RoundRecord{
			{Round: 1, Surveys: []roundtable.SurveyAnswer{{By: "b", Values: []float64{.2, .4, -.8}}, {By: "a", Values: []float64{.1, .3, .3}}}},
			{Round: 2, Surveys: []roundtable.SurveyAnswer{{By: "b", Values: []float64{.6, .4, -.6}}, {By: "a", Values: []float64{.1, .5, .5}}}},
		}}
	js := panel.Judgements(s)
	if len(js) != 6 || js[0].Judge != "CFO" || js[3].Judge != "VP" {
		t.Fatalf("judgements %+v", js)
	}
	cfo := js[:3]
	for i, want := range []panel.Judgement{
		{Judge: "CFO", Item: "Ann", Final: .6, Rank: 1, Valence: 1, Volatility: math.Sqrt(.08), Conviction: .6 / math.Sqrt(.08), GutRank: 2},
		{Judge: "CFO", Item: "Ben", Final: .4, Rank: 2, Valence: 0, Volatility: 0, Conviction: math.Inf(1), GutRank: 1},
		{Judge: "CFO", Item: "Cy", Final: -.6, Rank: 3, Valence: -1, Volatility: math.Sqrt(.02), Conviction: -.6 / math.Sqrt(.02), GutRank: 3},
	} {
		got := cfo[i]
		if got.Item != want.Item || !near(got.Final, want.Final) || got.Rank != want.Rank || got.Valence != want.Valence ||
			!near(got.Volatility, want.Volatility) || !(near(got.Conviction, want.Conviction) || got.Conviction == want.Conviction) || got.GutRank != want.GutRank {
			t.Errorf("CFO %s: %+v, want %+v", want.Item, got, want)
		}
	}
	if vp := js[3:]; vp[0].Rank != 3 || vp[1].Rank != 1 || vp[2].Rank != 1 {
		t.Errorf("VP places %d %d %d, want 3 1 1", vp[0].Rank, vp[1].Rank, vp[2].Rank)
	}
}
