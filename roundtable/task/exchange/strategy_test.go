package exchange

import (
	"math"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

func TestStatementRoundTrip(t *testing.T) {
	for _, p := range presets {
		for k := 2; k <= 10; k++ {
			e := mustNew(t, k, p)
			for i := 0; i < k; i++ {
				s := Strategy{Economy: e, Self: i}
				for _, round := range []int{1, 2} {
					w, ok := ParseStatement(s.Statement(round), k)
					if !ok {
						t.Fatalf("%s K=%d agent %d: cannot parse %q", p, k, i, s.Statement(round))
					}
					for g := range w {
						if math.Abs(w[g]-e.Theta[i][g]) > 0.5e-4 {
							t.Errorf("%s K=%d agent %d good %d: parsed %v, theta %v", p, k, i, g, w[g], e.Theta[i][g])
						}
					}
				}
			}
		}
	}
}

func TestStatementReadsWell(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	got := Strategy{Economy: e, Self: 1}.Statement(1)
	want := "Agent 2 here. I care most about good 2 (weight 0.8); goods 1 and 3 matter less to me. My weights: good 1 = 0.1, good 2 = 0.8, good 3 = 0.1."
	if got != want {
		t.Errorf("Statement = %q, want %q", got, want)
	}
}

func TestParseStatement(t *testing.T) {
	tests := []struct {
		name string
		text string
		k    int
		want []float64 // nil = not ok
	}{
		{"human variants", "Hi! Good 1: 0.2, GOOD 2 = .5 and good #3 = 3e-1.", 3, []float64{0.2, 0.5, 0.3}},
		{"first mention wins", "good 1 = 0.6, good 2 = 0.4. Earlier I said good 1 = 0.9.", 2, []float64{0.6, 0.4}},
		{"goods beyond k ignored", "good 1 = 0.5, good 2 = 0.5, good 3 = 0.9", 2, []float64{0.5, 0.5}},
		{"missing a good", "good 1 = 0.5, good 3 = 0.5", 3, nil},
		{"all zero", "good 1 = 0, good 2 = 0", 2, nil},
		{"prose only", "I care most about good 2 (weight 0.8)", 3, nil},
		{"no goods", "good 1 = 1", 0, nil},
	}
	for _, tt := range tests {
		w, ok := ParseStatement(tt.text, tt.k)
		if ok != (tt.want != nil) || (ok && !reflect.DeepEqual(w, tt.want)) {
			t.Errorf("%s: ParseStatement = %v, %v; want %v", tt.name, w, ok, tt.want)
		}
	}
}

// everyoneKnown is what agent self learns when every other agent states its
// weights.
func everyoneKnown(e *Economy, self int) map[int][]float64 {
	known := map[int][]float64{}
	for j := 0; j < e.K; j++ {
		if j != self {
			known[j], _ = ParseStatement(Strategy{Economy: e, Self: j}.Statement(1), e.K)
		}
	}
	return known
}

func TestProposeAlwaysValidAndDeterministic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(2, 6).Draw(t, "k")
		e, err := New(k, rapid.SampledFrom(presets).Draw(t, "preset"))
		if err != nil {
			t.Fatal(err)
		}
		s := Strategy{Economy: e, Self: rapid.IntRange(0, k-1).Draw(t, "self"), Seed: rapid.Int64().Draw(t, "seed")}
		rounds := rapid.IntRange(1, 15).Draw(t, "rounds")
		round := rapid.IntRange(1, rounds+3).Draw(t, "round")
		known := map[int][]float64{}
		for j := 0; j < k; j++ {
			switch rapid.IntRange(0, 2).Draw(t, "knowledge") {
			case 1:
				known[j] = e.Theta[j]
			case 2:
				known[j] = rapid.SliceOf(rapid.Float64Range(-1, 1)).Draw(t, "garbage")
			}
		}
		var decision Allocation
		if rapid.Bool().Draw(t, "decided") {
			decision = e.EqualSplit()
		}
		p := s.Propose(round, rounds, known, decision)
		if err := e.Validate(p); err != nil {
			t.Fatalf("proposal %v: %v", p, err)
		}
		if again := s.Propose(round, rounds, known, decision); !reflect.DeepEqual(p, again) {
			t.Fatalf("same inputs gave %v then %v", p, again)
		}
		if decision != nil && e.Utility(s.Self, p) < e.Utility(s.Self, decision) {
			t.Fatalf("proposal is worse for the proposer than the decision in force")
		}
	})
}

func TestProposeOpensSelfishNotGreedy(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	for i := 0; i < 3; i++ {
		s := Strategy{Economy: e, Self: i, Seed: 1}
		known := everyoneKnown(e, i)
		open, late := s.Propose(1, 10, known, nil), s.Propose(20, 10, known, nil)
		if e.Utility(i, open) <= e.Utility(i, late) || e.Utility(i, open) <= e.Utility(i, e.EqualSplit()) {
			t.Errorf("agent %d: opening %v is not better for itself than the equal split and its final offer %v", i+1, open, late)
		}
		if open[i][i] < 70 || open[i][i] > 90 {
			t.Errorf("agent %d keeps %v of its favourite good, want most but not all", i+1, open[i][i])
		}
		for j := range open {
			if j != i && e.Utility(j, open) <= 0 {
				t.Errorf("agent %d's opening leaves agent %d with nothing", i+1, j+1)
			}
		}
	}
}

func TestProposeConvergesToOneAllocation(t *testing.T) {
	for _, p := range presets {
		e := mustNew(t, 4, p)
		var first Allocation
		for i := 0; i < 4; i++ {
			got := Strategy{Economy: e, Self: i, Seed: int64(10 + i)}.Propose(12, 10, everyoneKnown(e, i), nil)
			if first == nil {
				first = got
			} else if e.Canonical(got) != e.Canonical(first) {
				t.Errorf("%s: agent %d's final offer %v differs from %v", p, i+1, got, first)
			}
		}
		umax, _ := e.UMax()
		if u := e.Total(first) / umax; u < 0.9 {
			t.Errorf("%s: consensus reaches only %.3f of U_max", p, u)
		}
	}
}

func TestProposeSeedJitter(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	known := everyoneKnown(e, 0)
	a := Strategy{Economy: e, Self: 0, Seed: 1}.Propose(1, 10, known, nil)
	b := Strategy{Economy: e, Self: 0, Seed: 2}.Propose(1, 10, known, nil)
	if reflect.DeepEqual(a, b) {
		t.Errorf("seeds 1 and 2 made the same opening %v", a)
	}
	for g := range a[0] {
		if math.Abs(a[0][g]-b[0][g]) > 10 {
			t.Errorf("seeds change good %d by %v, want a small jitter", g+1, math.Abs(a[0][g]-b[0][g]))
		}
	}
}

func TestProposeKeepsBetterDecision(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	generous := Allocation{{98, 98, 98}, {1, 1, 1}, {1, 1, 1}}
	got := Strategy{Economy: e, Self: 0, Seed: 1}.Propose(5, 10, everyoneKnown(e, 0), generous)
	if !reflect.DeepEqual(got, generous) {
		t.Errorf("Propose = %v, want the decision in force %v", got, generous)
	}
}
