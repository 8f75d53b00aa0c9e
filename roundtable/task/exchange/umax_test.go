package exchange

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"pgregory.net/rapid"
)

var presets = []Preset{Asymmetric, Symmetric, Uniform, AsymmetricPrinted}

func TestUMaxAnalytic(t *testing.T) {
	tests := []struct {
		preset Preset
		k      int
		want   float64
	}{
		// Identical degree-1 utilities: U <= u(total) = Supply.
		{Uniform, 2, 100}, {Uniform, 3, 100}, {Uniform, 7, 100},
		{Symmetric, 2, 100}, {Symmetric, 3, 100}, {Symmetric, 6, 100},
		// Asymmetric: by symmetry all u_i are equal at the optimum, so the
		// proportional condition gives a_ik = 100*theta_ik.
		{Asymmetric, 2, 2 * math.Pow(80, 0.8) * math.Pow(20, 0.2)},
		{Asymmetric, 3, 3 * math.Pow(80, 0.8) * math.Pow(10, 0.2)},
		{Asymmetric, 5, 5 * math.Pow(80, 0.8) * math.Pow(5, 0.2)},
		// Printed: a_ik = 100*theta_ik/sum_j theta_jk, 0.8/(0.8+0.2(K-1)/K).
		{AsymmetricPrinted, 3, 3 * math.Pow(100*0.8/(0.8+0.4/3), 0.8) * math.Pow(100*(0.2/3)/(0.8+0.4/3), 0.4/3)},
	}
	for _, tt := range tests {
		got, a := mustNew(t, tt.k, tt.preset).UMax()
		if math.Abs(got-tt.want) > 1e-9*tt.want {
			t.Errorf("%s K=%d: UMax = %.12f, want %.12f", tt.preset, tt.k, got, tt.want)
		}
		if err := mustNew(t, tt.k, tt.preset).Validate(a); err != nil {
			t.Errorf("%s K=%d: argmax is infeasible: %v", tt.preset, tt.k, err)
		}
	}
}

// checkKKT verifies the optimality conditions of a for U: for each good, the
// marginal utilities of the agents who get some of it are equal, and no agent
// who gets none of it would gain more from it.
func checkKKT(t *testing.T, e *Economy, a Allocation) {
	t.Helper()
	const tol = 1e-6
	for k := 0; k < e.K; k++ {
		lo, hi := math.Inf(1), 0.0
		for i := 0; i < e.K; i++ {
			if a[i][k] > 1e-9*e.Supply {
				m := e.marginal(i, k, a)
				lo, hi = math.Min(lo, m), math.Max(hi, m)
			}
		}
		if hi-lo > tol*hi {
			t.Errorf("good %d: marginals of holders range over [%g, %g]", k+1, lo, hi)
		}
		for i := 0; i < e.K; i++ {
			if a[i][k] <= 1e-9*e.Supply && e.marginal(i, k, a) > hi*(1+tol) {
				t.Errorf("good %d: agent %d holds none but its marginal %g beats %g", k+1, i+1, e.marginal(i, k, a), hi)
			}
		}
	}
}

func TestUMaxKKT(t *testing.T) {
	for _, p := range presets {
		for k := 2; k <= 10; k++ {
			t.Run(fmt.Sprintf("%s/K=%d", p, k), func(t *testing.T) {
				e := mustNew(t, k, p)
				_, a := e.UMax()
				checkKKT(t, e, a)
			})
		}
	}
}

func TestUMaxKKTRandomWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for n := range 30 {
		k := 2 + n%5
		e := &Economy{K: k, Supply: 100, Theta: make([][]float64, k)}
		for i := range e.Theta {
			e.Theta[i] = make([]float64, k)
			sum := 0.0
			for g := range e.Theta[i] {
				e.Theta[i][g] = 0.05 + rng.ExpFloat64()
				sum += e.Theta[i][g]
			}
			for g := range e.Theta[i] {
				e.Theta[i][g] /= sum
			}
		}
		u, a := e.UMax()
		if err := e.Validate(a); err != nil {
			t.Fatalf("economy %d: %v", n, err)
		}
		if got := e.Total(a); math.Abs(got-u) > 1e-9*u {
			t.Errorf("economy %d: Total(argmax) = %v, UMax = %v", n, got, u)
		}
		checkKKT(t, e, a)
	}
}

// gridMax is the largest U over allocations whose amounts are multiples of
// step, for K = 2 or 3.
func gridMax(e *Economy, step float64) float64 {
	n := int(math.Round(e.Supply / step))
	var splits [][]float64 // ways to split one good among K agents
	for x := 0; x <= n; x++ {
		if e.K == 2 {
			splits = append(splits, []float64{float64(x) * step, float64(n-x) * step})
			continue
		}
		for y := 0; x+y <= n; y++ {
			splits = append(splits, []float64{float64(x) * step, float64(y) * step, float64(n-x-y) * step})
		}
	}
	best := 0.0
	a := make(Allocation, e.K)
	for i := range a {
		a[i] = make([]float64, e.K)
	}
	var fill func(k int)
	fill = func(k int) {
		if k == e.K {
			best = math.Max(best, e.Total(a))
			return
		}
		for _, s := range splits {
			for i := range a {
				a[i][k] = s[i]
			}
			fill(k + 1)
		}
	}
	fill(0)
	return best
}

func TestUMaxAgainstGrid(t *testing.T) {
	for _, p := range presets {
		for _, tt := range []struct {
			k    int
			step float64
		}{{2, 0.5}, {3, 10}} {
			e := mustNew(t, tt.k, p)
			umax, _ := e.UMax()
			grid := gridMax(e, tt.step)
			if grid > umax*(1+1e-12) {
				t.Errorf("%s K=%d: grid point %v beats UMax %v", p, tt.k, grid, umax)
			}
			// The grids hold the exact optimum except for the printed preset.
			slack := 1e-9
			if p == AsymmetricPrinted {
				slack = 0.02
			}
			if grid < umax*(1-slack) {
				t.Errorf("%s K=%d: UMax %v is far above the grid's best %v", p, tt.k, umax, grid)
			}
		}
	}
}

// randomAllocation splits each good by independent weights, some of them 0.
func randomAllocation(t *rapid.T, e *Economy) Allocation {
	a := make(Allocation, e.K)
	for i := range a {
		a[i] = make([]float64, e.K)
	}
	for k := 0; k < e.K; k++ {
		w := rapid.SliceOfN(rapid.Float64Range(0, 1), e.K, e.K).Draw(t, fmt.Sprintf("good%d", k+1))
		sum := 0.0
		for _, x := range w {
			sum += x
		}
		if sum == 0 {
			w[0], sum = 1, 1
		}
		for i := range a {
			a[i][k] = e.Supply * w[i] / sum
		}
	}
	return a
}

func TestUMaxBeatsRandomAllocations(t *testing.T) {
	economies := map[string]*Economy{}
	rapid.Check(t, func(t *rapid.T) {
		k := rapid.IntRange(2, 6).Draw(t, "k")
		p := rapid.SampledFrom(presets).Draw(t, "preset")
		key := fmt.Sprint(k, p)
		if economies[key] == nil {
			e, err := New(k, p)
			if err != nil {
				t.Fatal(err)
			}
			economies[key] = e
		}
		e := economies[key]
		umax, _ := e.UMax()
		for range 50 {
			a := randomAllocation(t, e)
			if err := e.Validate(a); err != nil {
				t.Fatalf("generator made an infeasible allocation: %v", err)
			}
			if u := e.Total(a); u > umax*(1+1e-12) {
				t.Fatalf("U(%v) = %v > UMax = %v", a, u, umax)
			}
		}
	})
}

// TestUMaxIsLocalMaximum moves small amounts of one good between two agents
// away from the argmax; no such move may raise U.
func TestUMaxIsLocalMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, p := range presets {
		e := mustNew(t, 3, p)
		umax, best := e.UMax()
		for range 2000 {
			a := best.Clone()
			k, from, to := rng.IntN(3), rng.IntN(3), rng.IntN(3)
			d := math.Min(a[from][k], rng.Float64()*rng.Float64()*10)
			a[from][k] -= d
			a[to][k] += d
			if u := e.Total(a); u > umax*(1+1e-12) {
				t.Fatalf("%s: moving %v of good %d from %d to %d gives %v > UMax %v", p, d, k+1, from+1, to+1, u, umax)
			}
		}
	}
}

func TestUMaxConcurrentAndCopied(t *testing.T) {
	e := mustNew(t, 4, Asymmetric)
	var wg sync.WaitGroup
	results := make([]float64, 8)
	for n := range results {
		wg.Go(func() {
			u, a := e.UMax()
			a[0][0] = -1 // callers own their copy
			results[n] = u
		})
	}
	wg.Wait()
	for _, u := range results {
		if u != results[0] {
			t.Fatalf("UMax differs across goroutines: %v", results)
		}
	}
	if _, a := e.UMax(); a[0][0] < 0 {
		t.Errorf("a caller's change reached the cached argmax")
	}
}

func BenchmarkUMax(b *testing.B) {
	for _, k := range []int{3, 10} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			for b.Loop() {
				e, _ := New(k, Asymmetric)
				e.UMax()
			}
		})
	}
}
