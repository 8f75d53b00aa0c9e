package exchange

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
)

// Preset names a set of utility weights from the paper.
type Preset string

// The presets. The zero value ("") means Asymmetric.
const (
	// Asymmetric: agent i weights good i with 0.8 and every other good with
	// 0.2/(K-1). This is the paper's main setting.
	Asymmetric Preset = "asymmetric"
	// Symmetric: every agent weights good 1 (index 0) with 0.8 and every other
	// good with 0.2/(K-1).
	Symmetric Preset = "symmetric"
	// Uniform: every agent weights every good with 1/K.
	Uniform Preset = "uniform"
	// AsymmetricPrinted is Asymmetric with the share printed in the paper,
	// (1-0.8)/K for every other good. Its rows do NOT sum to 1 (0.8+0.2(K-1)/K),
	// so utilities are homogeneous of degree below 1; it exists only to
	// reproduce the paper's formula literally.
	AsymmetricPrinted Preset = "asymmetric-printed"
)

// DefaultSupply is the quantity of every good in the paper.
const DefaultSupply = 100

// ErrInvalid is matched (errors.Is) by every error Validate and
// ParseAllocation return. Their messages are safe to show to the proposer.
var ErrInvalid = errors.New("invalid allocation")

// invalidError carries a user-facing message and matches ErrInvalid.
type invalidError struct{ msg string }

func (e *invalidError) Error() string        { return e.msg }
func (e *invalidError) Is(target error) bool { return target == ErrInvalid }

func invalidf(format string, args ...any) error {
	return &invalidError{msg: fmt.Sprintf(format, args...)}
}

// Economy is an exchange economy: K agents, K goods, Supply units of each
// good, and Cobb-Douglas weights Theta[i][k] of agent i for good k. Agents
// and goods are 0-based in code and 1-based in every message meant for people.
//
// An Economy must not be copied or have Theta changed after UMax is first
// called: UMax caches its result. All methods are safe for concurrent use.
type Economy struct {
	K      int
	Supply float64
	Theta  [][]float64

	once sync.Once
	umax float64
	best Allocation
}

// Allocation gives A[i][k] units of good k to agent i. A feasible allocation
// has K rows of K non-negative amounts and every good (column) sums to the
// supply.
type Allocation [][]float64

// New returns the economy with k agents and goods, the paper's supply of 100
// and the preset's weights.
func New(k int, preset Preset) (*Economy, error) {
	if k < 2 {
		return nil, fmt.Errorf("exchange: need at least 2 agents, got %d", k)
	}
	var own, other float64
	switch preset {
	case Asymmetric, "":
		own, other = 0.8, 0.2/float64(k-1)
	case AsymmetricPrinted:
		own, other = 0.8, 0.2/float64(k)
	case Symmetric:
		own, other = 0.8, 0.2/float64(k-1)
	case Uniform:
		own, other = 1/float64(k), 1/float64(k)
	default:
		return nil, fmt.Errorf("exchange: unknown preset %q (want asymmetric, symmetric, uniform or asymmetric-printed)", preset)
	}
	theta := make([][]float64, k)
	for i := range theta {
		theta[i] = make([]float64, k)
		fav := i
		if preset == Symmetric {
			fav = 0
		}
		for g := range theta[i] {
			theta[i][g] = other
		}
		theta[i][fav] = own
	}
	return &Economy{K: k, Supply: DefaultSupply, Theta: theta}, nil
}

// Validate reports whether a is feasible. The error names the first problem
// in people's terms (1-based agents and goods), for example
// "row 2 has 2 amounts, want 3", "agent 1 gets -3 of good 2" or
// "good 2 sums to 97.5, want 100". Sums may be off by 1e-6*Supply.
func (e *Economy) Validate(a Allocation) error {
	if len(a) != e.K {
		return invalidf("allocation has %s, want %d (one row per agent)", count(len(a), "row", "rows"), e.K)
	}
	for i, row := range a {
		if len(row) != e.K {
			return invalidf("row %d has %s, want %d", i+1, count(len(row), "amount", "amounts"), e.K)
		}
		for k, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return invalidf("agent %d gets %v of good %d, want a finite number", i+1, x, k+1)
			}
			if x < 0 {
				return invalidf("agent %d gets %s of good %d", i+1, num(x), k+1)
			}
		}
	}
	for k := 0; k < e.K; k++ {
		sum := 0.0
		for i := range a {
			sum += a[i][k]
		}
		if math.Abs(sum-e.Supply) > 1e-6*e.Supply {
			return invalidf("good %d sums to %s, want %s", k+1, num(sum), num(e.Supply))
		}
	}
	return nil
}

// num formats x for people: rounded to 1e-6, no exponent, no trailing zeros.
func num(x float64) string {
	r := math.Round(x*1e6) / 1e6
	if r == 0 {
		r = 0 // no "-0"
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// Utility is agent i's Cobb-Douglas utility prod_k a[i][k]^Theta[i][k] (0-based
// i). It is 0 if the agent gets nothing of a good it weights, and 0 for an
// agent or row that does not exist; negative amounts count as 0.
func (e *Economy) Utility(i int, a Allocation) float64 {
	if i < 0 || i >= len(a) || i >= len(e.Theta) {
		return 0
	}
	return cobbDouglas(e.Theta[i], a[i])
}

// cobbDouglas is prod_k x_k^w_k with 0^0 = 1, computed in log space.
func cobbDouglas(w, x []float64) float64 {
	if len(x) < len(w) {
		return 0
	}
	logSum := 0.0
	for k, wk := range w {
		if wk == 0 {
			continue
		}
		if !(x[k] > 0) {
			return 0
		}
		logSum += wk * math.Log(x[k])
	}
	return math.Exp(logSum)
}

// Total is the group's hidden goal U = sum_i u_i.
func (e *Economy) Total(a Allocation) float64 {
	sum := 0.0
	for i := 0; i < e.K; i++ {
		sum += e.Utility(i, a)
	}
	return sum
}

// EqualSplit gives every agent Supply/K of every good.
func (e *Economy) EqualSplit() Allocation {
	a := make(Allocation, e.K)
	for i := range a {
		a[i] = make([]float64, e.K)
		for k := range a[i] {
			a[i][k] = e.Supply / float64(e.K)
		}
	}
	return a
}

// Clone returns a deep copy of a.
func (a Allocation) Clone() Allocation {
	if a == nil {
		return nil
	}
	c := make(Allocation, len(a))
	for i, row := range a {
		c[i] = append([]float64(nil), row...)
	}
	return c
}

// count writes n with its noun: "1 row", "2 rows".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
