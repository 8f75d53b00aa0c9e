package exchange

import (
	"errors"
	"math"
	"testing"
)

func mustNew(t testing.TB, k int, p Preset) *Economy {
	t.Helper()
	e, err := New(k, p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestNewWeights(t *testing.T) {
	tests := []struct {
		preset    Preset
		k         int
		own       float64 // weight of the favourite good
		other     float64
		favourite func(i int) int
		rowSum    float64
	}{
		{Asymmetric, 3, 0.8, 0.1, func(i int) int { return i }, 1},
		{"", 3, 0.8, 0.1, func(i int) int { return i }, 1},
		{Asymmetric, 5, 0.8, 0.05, func(i int) int { return i }, 1},
		{Symmetric, 3, 0.8, 0.1, func(int) int { return 0 }, 1},
		{Uniform, 4, 0.25, 0.25, func(i int) int { return i }, 1},
		{AsymmetricPrinted, 3, 0.8, 0.2 / 3, func(i int) int { return i }, 0.8 + 0.4/3},
	}
	for _, tt := range tests {
		e := mustNew(t, tt.k, tt.preset)
		if e.K != tt.k || e.Supply != 100 || len(e.Theta) != tt.k {
			t.Fatalf("%q: K=%d Supply=%v rows=%d", tt.preset, e.K, e.Supply, len(e.Theta))
		}
		for i, row := range e.Theta {
			sum := 0.0
			for g, w := range row {
				want := tt.other
				if g == tt.favourite(i) {
					want = tt.own
				}
				if math.Abs(w-want) > 1e-15 {
					t.Errorf("%q K=%d: theta[%d][%d] = %v, want %v", tt.preset, tt.k, i, g, w, want)
				}
				sum += w
			}
			if math.Abs(sum-tt.rowSum) > 1e-12 {
				t.Errorf("%q K=%d: row %d sums to %v, want %v", tt.preset, tt.k, i, sum, tt.rowSum)
			}
		}
	}
}

func TestNewRejects(t *testing.T) {
	for _, tt := range []struct {
		k      int
		preset Preset
	}{{1, Asymmetric}, {0, Uniform}, {3, "lopsided"}} {
		if _, err := New(tt.k, tt.preset); err == nil {
			t.Errorf("New(%d, %q) succeeded, want an error", tt.k, tt.preset)
		}
	}
}

func TestValidate(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	tests := []struct {
		name string
		a    Allocation
		want string // "" = valid
	}{
		{"optimum", Allocation{{80, 10, 10}, {10, 80, 10}, {10, 10, 80}}, ""},
		{"one agent gets all", Allocation{{100, 100, 100}, {0, 0, 0}, {0, 0, 0}}, ""},
		{"within tolerance", Allocation{{80.00001, 10, 10}, {10, 80, 10}, {10, 10, 80}}, ""},
		{"too few rows", Allocation{{100, 100, 100}}, "allocation has 1 row, want 3 (one row per agent)"},
		{"short row", Allocation{{80, 10, 10}, {10, 80}, {10, 10, 80}}, "row 2 has 2 amounts, want 3"},
		{"negative", Allocation{{80, -3, 10}, {10, 93, 10}, {10, 10, 80}}, "agent 1 gets -3 of good 2"},
		{"bad sum", Allocation{{80, 10, 10}, {10, 77.5, 10}, {10, 10, 80}}, "good 2 sums to 97.5, want 100"},
		{"NaN", Allocation{{80, 10, 10}, {10, 80, 10}, {10, 10, math.NaN()}}, "agent 3 gets NaN of good 3, want a finite number"},
		{"Inf", Allocation{{math.Inf(1), 10, 10}, {10, 80, 10}, {10, 10, 80}}, "agent 1 gets +Inf of good 1, want a finite number"},
		{"nil", nil, "allocation has 0 rows, want 3 (one row per agent)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := e.Validate(tt.a)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Validate = %v, want %q", err, tt.want)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error does not match ErrInvalid")
			}
		})
	}
}

func TestUtility(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	a := Allocation{{80, 10, 10}, {10, 80, 10}, {0, 10, 90}}
	tests := []struct {
		name  string
		agent int
		a     Allocation
		want  float64
	}{
		{"interior", 0, a, math.Pow(80, 0.8) * math.Pow(10, 0.1) * math.Pow(10, 0.1)},
		{"zero of a weighted good", 2, a, 0},
		{"negative index", -1, a, 0},
		{"index past the rows", 3, a, 0},
		{"short row", 0, Allocation{{80}}, 0},
	}
	for _, tt := range tests {
		if got := e.Utility(tt.agent, tt.a); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: Utility = %v, want %v", tt.name, got, tt.want)
		}
	}
	if got, want := e.Total(a), e.Utility(0, a)+e.Utility(1, a); got != want {
		t.Errorf("Total = %v, want %v", got, want)
	}
}

func TestUtilityZeroWeightIgnoresGood(t *testing.T) {
	e := &Economy{K: 2, Supply: 100, Theta: [][]float64{{1, 0}, {0.5, 0.5}}}
	if got := e.Utility(0, Allocation{{30, 0}, {70, 100}}); math.Abs(got-30) > 1e-12 {
		t.Errorf("Utility = %v, want 30 (0^0 = 1)", got)
	}
}

func TestEqualSplitAndClone(t *testing.T) {
	e := mustNew(t, 4, Uniform)
	a := e.EqualSplit()
	if err := e.Validate(a); err != nil {
		t.Fatal(err)
	}
	c := a.Clone()
	c[0][0] = 99
	if a[0][0] != 25 {
		t.Errorf("Clone shares storage with the original")
	}
	if Allocation(nil).Clone() != nil {
		t.Errorf("Clone(nil) != nil")
	}
}
