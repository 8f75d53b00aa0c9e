package opinion_test

import (
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/opinion"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// A small network: three agents with DeGroot weights W (rows sum to 1).
// W is irreducible and aperiodic, so x(t) -> (pi . x0) 1 where pi is the
// left eigenvector of W with eigenvalue 1. For
//
//	W = [[.5 .5 0] [.25 .5 .25] [0 .5 .5]]
//
// pi W = pi gives pi = (1/4, 1/2, 1/4) by hand (detailed balance:
// pi1*.5 = pi2*.25, pi3*.5 = pi2*.25), so x0 = (2, -1, 0) reaches
// 2/4 - 1/2 + 0 = 0.
func TestDeGrootReachesItsClosedFormConsensus(t *testing.T) {
	w := [][]float64{{.5, .5, 0}, {.25, .5, .25}, {0, .5, .5}}
	x := opinion.Iterate(w, []float64{2, -1, 0}, 200)
	for i, v := range x {
		if math.Abs(v-0) > 1e-12 {
			t.Errorf("x[%d] = %v, want the consensus 0", i, v)
		}
	}
	x = opinion.Iterate(w, []float64{1, 1, -2}, 200)
	want := 0.25*1 + 0.5*1 + 0.25*-2
	for i, v := range x {
		if math.Abs(v-want) > 1e-12 {
			t.Errorf("x[%d] = %v, want %v", i, v, want)
		}
	}
}

// The pairwise update is one row of such a matrix: the listener's row is
// (1-w) on itself and w on the speaker.
func TestDeGrootPairIsAMatrixRow(t *testing.T) {
	if got := opinion.DeGroot(-2, 1, 0.5); !near(got, -0.5) {
		t.Errorf("DeGroot(-2, 1, .5) = %v", got)
	}
	if got := opinion.DeGroot(1, 2, 0.25); !near(got, 1.25) {
		t.Errorf("DeGroot(1, 2, .25) = %v", got)
	}
	x := opinion.Iterate([][]float64{{1, 0}, {0.5, 0.5}}, []float64{1, -1}, 1)
	if !near(x[1], opinion.DeGroot(-1, 1, 0.5)) || x[0] != 1 {
		t.Errorf("matrix step %v", x)
	}
}

// Hand-computed: x = (-2, 0, 1.5), mu = .3, epsilon = 2.
//
//	(1,2): |0-1.5| = 1.5 < 2: x1 = 0+.3*1.5 = .45, x2 = 1.5-.45 = 1.05
//	(0,1): |-2-.45| = 2.45 >= 2: no change
//	(2,1): |1.05-.45| = .6 < 2: x2 = 1.05-.18 = .87, x1 = .45+.18 = .63
//	(0,2): |-2-.87| = 2.87: no change
func TestDeffuantHandComputedSequence(t *testing.T) {
	x := []float64{-2, 0, 1.5}
	want := [][]float64{{-2, .45, 1.05}, {-2, .45, 1.05}, {-2, .63, .87}, {-2, .63, .87}}
	for k, p := range [][2]int{{1, 2}, {0, 1}, {2, 1}, {0, 2}} {
		x[p[0]], x[p[1]] = opinion.Deffuant(x[p[0]], x[p[1]], 0.3, 2)
		for i := range x {
			if !near(x[i], want[k][i]) {
				t.Fatalf("step %d: x = %v, want %v", k+1, x, want[k])
			}
		}
	}
	if a, b := opinion.Deffuant(0, 1, opinion.DefaultMu, opinion.DefaultEpsilon); a != 0 || b != 1 {
		t.Errorf("at exactly epsilon apart they moved: %v %v", a, b)
	}
}

// x = (-2, -1, 0, 2, 2): B = 1/5 = .2; deviations -2.2 -1.2 -.2 1.8 1.8,
// squares 4.84 1.44 .04 3.24 3.24 sum 12.8, /(5-1) = 3.2, D = sqrt(3.2).
// The paper's uniform start of 10 agents, two per level: squares sum
// 2·(4+1+0+1+4) = 20, /9, D = sqrt(20/9) = 1.49 (the paper's number).
func TestBiasAndDiversityHandComputed(t *testing.T) {
	xs := []float64{-2, -1, 0, 2, 2}
	if b := opinion.Bias(xs); !near(b, 0.2) {
		t.Errorf("B = %v, want 0.2", b)
	}
	if d := opinion.Diversity(xs); !near(d, math.Sqrt(3.2)) {
		t.Errorf("D = %v, want sqrt(3.2)", d)
	}
	uniform := []float64{-2, -2, -1, -1, 0, 0, 1, 1, 2, 2}
	if d := opinion.Diversity(uniform); math.Round(d*100)/100 != 1.49 {
		t.Errorf("D of the uniform start of 10 = %v, want the paper's 1.49", d)
	}
	if d := opinion.Diversity([]float64{0.5}); d != 0 {
		t.Errorf("D of one opinion = %v, want 0", d)
	}
	if d := opinion.Diversity([]float64{1, 1, 1}); d != 0 {
		t.Errorf("D of a consensus = %v", d)
	}
	if !math.IsNaN(opinion.Bias(nil)) {
		t.Error("B of nobody is a number")
	}
}

// Judges a: (.9, .1, -.5), b: (.2, .2, .8). a: 3 2 1; b ties the first two
// at (1+2)/2 = 1.5 each, third gets 3. Totals 4.5, 3.5, 4.
func TestParseStance(t *testing.T) {
	for in, want := range map[string]float64{"strongly agree": 2, "Neutral": 0, "-1.5": -1.5, "slightly-disagree": -1} {
		if got, err := opinion.ParseStance(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := opinion.ParseStance("3"); err == nil {
		t.Error("3 accepted")
	}
	if _, err := opinion.ParseStance("maybe"); err == nil {
		t.Error("maybe accepted")
	}
}

func TestBiasFactorHandComputed(t *testing.T) {
	for _, c := range []struct {
		level string
		d     float64
		want  float64
	}{
		{"none", 4, 1}, {"", 2, 1},
		{"weak", 0, 1}, {"weak", 2, 0.75}, {"weak", 4, 0.5}, {"weak", -4, 0.5},
		{"strong", 0, 1}, {"strong", 2, 0.25}, {"strong", 4, 0}, {"strong", 6, 0},
	} {
		got, err := opinion.BiasFactor(c.level, c.d)
		if err != nil || !near(got, c.want) {
			t.Errorf("BiasFactor(%q, %v) = %v, %v; want %v", c.level, c.d, got, err, c.want)
		}
	}
	if _, err := opinion.BiasFactor("extreme", 1); err == nil {
		t.Error("an unknown level passed")
	}
}

// Ten repeats of the one-shot Likert questionnaire: the liberal persona
// (2) answers 2 2 1 2 0 2 2 1 2 2, deviations 0 0 1 0 2 0 0 1 0 0, mean
// 0.4; the conservative one (-2) answers -2 -2 -2 0 -2 -1 -2 -2 -2 2,
// deviations 0 0 0 2 0 1 0 0 0 4, mean 0.7. Score 0.4 - 0.7 = -0.3: a
// slight drift of the conservative toward the liberal pole.
func TestLikertDeviationOfAFixedAnswerSet(t *testing.T) {
	dev := func(assigned float64, answers ...float64) []float64 {
		var out []float64
		for _, a := range answers {
			d, ok := opinion.LikertDeviation(assigned, a)
			if !ok {
				t.Fatalf("assigned %v: not asked", assigned)
			}
			out = append(out, d)
		}
		return out
	}
	lib := dev(2, 2, 2, 1, 2, 0, 2, 2, 1, 2, 2)
	con := dev(-2, -2, -2, -2, 0, -2, -1, -2, -2, -2, 2)
	if s := opinion.LikertScore(lib, con); !near(s, -0.3) {
		t.Errorf("score %v, want -0.3", s)
	}
	if s := opinion.LikertScore(dev(2, -2), dev(-2, -2)); s != 4 {
		t.Errorf("a liberal answering strongly conservative: %v, want 4", s)
	}
	if s := opinion.LikertScore(nil, dev(-2, 2)); s != -4 {
		t.Errorf("a conservative answering strongly liberal: %v, want -4", s)
	}
	if _, ok := opinion.LikertDeviation(1, 2); ok {
		t.Error("a slightly liberal persona is not in the baseline")
	}
}
