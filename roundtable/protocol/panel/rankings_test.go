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
	if c := panel.Conviction([]float64{.8, .8, .8}); !near(c, .8) {
		t.Errorf("a steady opinion's conviction = %v", c)
	}
	if c := panel.Conviction([]float64{-.8, .8}); !near(c, 0) {
		t.Errorf("a flip's conviction = %v, want 0", c)
	}
}
