package panel_test

import (
	"math"
	"testing"

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
