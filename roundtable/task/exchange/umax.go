package exchange

import "math"

// Solver limits for UMax. The fixed point converges linearly for the presets
// (a few hundred iterations at most); the cap only guards odd custom weights.
const (
	maxIterations = 100000
	stepTolerance = 1e-13 // stop when no amount moves by more than this * Supply
)

// UMax returns the largest total utility U over all feasible allocations and
// an allocation that attains it. It is computed numerically on first use and
// cached; callers get their own copy of the allocation.
//
// Method: U is concave (each Cobb-Douglas with weights summing to at most 1
// is concave), and at an optimum every good k is shared so that the marginal
// utilities Theta[i][k]*u_i/a[i][k] are equal across the agents who get some
// of it. Solving that for a[i][k] gives the proportional fixed point
//
//	a[i][k] = Supply * Theta[i][k]*u_i / sum_j Theta[j][k]*u_j.
//
// Starting from the equal split we move toward it with a backtracking line
// search. By Cauchy-Schwarz the move is an ascent direction that vanishes
// exactly at the optimality conditions, so U never decreases.
func (e *Economy) UMax() (float64, Allocation) {
	e.once.Do(func() { e.umax, e.best = e.solve() })
	return e.umax, e.best.Clone()
}

func (e *Economy) solve() (float64, Allocation) {
	a := e.EqualSplit()
	u := make([]float64, e.K)
	next := make(Allocation, e.K)
	trial := make(Allocation, e.K)
	for i := range next {
		next[i] = make([]float64, e.K)
		trial[i] = make([]float64, e.K)
	}
	cur := e.Total(a)
	for range maxIterations {
		for i := range u {
			u[i] = e.Utility(i, a)
		}
		e.proportional(a, u, next)
		moved, val := e.lineSearch(a, next, trial, cur)
		if val < cur {
			break
		}
		a, trial = trial, a
		cur = val
		if moved <= stepTolerance*e.Supply {
			break
		}
	}
	return cur, a
}

// proportional writes the fixed-point map of a into next: every good is
// split in proportion to Theta[i][k]*u_i. A good nobody can use keeps its
// current split.
func (e *Economy) proportional(a Allocation, u []float64, next Allocation) {
	for k := 0; k < e.K; k++ {
		sum := 0.0
		for i := 0; i < e.K; i++ {
			sum += e.Theta[i][k] * u[i]
		}
		for i := 0; i < e.K; i++ {
			if sum > 0 {
				next[i][k] = e.Supply * e.Theta[i][k] * u[i] / sum
			} else {
				next[i][k] = a[i][k]
			}
		}
	}
}

// lineSearch writes into trial the first point a + t*(next-a), t = 1, 1/2,
// ..., whose total is at least cur, and returns the largest amount moved and
// the new total. If none qualifies it returns the total of the last trial,
// below cur.
func (e *Economy) lineSearch(a, next, trial Allocation, cur float64) (moved, val float64) {
	for t := 1.0; ; t /= 2 {
		moved = 0
		for i := range a {
			for k := range a[i] {
				d := t * (next[i][k] - a[i][k])
				trial[i][k] = a[i][k] + d
				moved = math.Max(moved, math.Abs(d))
			}
		}
		val = e.Total(trial)
		if val >= cur || t < 1e-12 {
			return moved, val
		}
	}
}

// marginal is d u_i / d a[i][k] at a: Theta[i][k]*u_i/a[i][k], or, where agent
// i has none of good k, the limit of that derivative as its amount grows from
// zero (+Inf if the agent otherwise has a positive utility).
func (e *Economy) marginal(i, k int, a Allocation) float64 {
	w := e.Theta[i][k]
	if w == 0 {
		return 0
	}
	if a[i][k] > 0 {
		return w * e.Utility(i, a) / a[i][k]
	}
	rest := 1.0
	for g, wg := range e.Theta[i] {
		if g == k || wg == 0 {
			continue
		}
		if !(a[i][g] > 0) {
			return 0
		}
		rest *= math.Pow(a[i][g], wg)
	}
	if w < 1 {
		return math.Inf(1)
	}
	return rest
}
