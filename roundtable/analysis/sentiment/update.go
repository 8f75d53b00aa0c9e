package sentiment

import "math"

// The defaults of Sentimental Agents, which the panel protocol takes: the
// weight of the newest opinion in the update, and the stop rule's
// tolerance.
const (
	DefaultAlpha     = 0.5
	DefaultTolerance = 1e-5
)

// Update is the non-Bayesian update: S_i(t) = alpha*S_O + (1-alpha)*S_i(t-1).
func Update(prev, so, alpha float64) float64 { return alpha*so + (1-alpha)*prev }

// Point is an agent's sentiment after one statement and how far it moved.
type Point struct {
	S     float64 `json:"s"`
	Delta float64 `json:"delta"`
}

// Trajectory follows each agent's sentiment over its statements. The zero
// value uses DefaultAlpha and DefaultTolerance; it is not safe for
// concurrent use.
//
// Decision: an agent's first statement sets its sentiment, S_i(1) = S_O,
// with no change recorded (dS is undefined before there is a previous
// value); every later statement applies Update.
type Trajectory struct {
	Alpha     float64
	Tolerance float64
	points    map[string][]Point
}

// Observe folds agent's opinion sentiment so into its trajectory and
// returns the new point.
func (tr *Trajectory) Observe(agent string, so float64) Point {
	if tr.points == nil {
		tr.points = map[string][]Point{}
	}
	pts := tr.points[agent]
	p := Point{S: so, Delta: math.NaN()}
	if n := len(pts); n > 0 {
		p.S = Update(pts[n-1].S, so, tr.alpha())
		p.Delta = math.Abs(p.S - pts[n-1].S)
	}
	tr.points[agent] = append(pts, p)
	return p
}

// Points returns agent's trajectory.
func (tr *Trajectory) Points(agent string) []Point { return append([]Point(nil), tr.points[agent]...) }

// Stopped reports the stop rule: every agent has moved at least once and
// its latest change is below the tolerance.
func (tr *Trajectory) Stopped() bool {
	if len(tr.points) == 0 {
		return false
	}
	for _, pts := range tr.points {
		last := pts[len(pts)-1]
		if len(pts) < 2 || !(last.Delta < tr.tolerance()) {
			return false
		}
	}
	return true
}

func (tr *Trajectory) alpha() float64 {
	if tr.Alpha == 0 {
		return DefaultAlpha
	}
	return tr.Alpha
}

func (tr *Trajectory) tolerance() float64 {
	if tr.Tolerance == 0 {
		return DefaultTolerance
	}
	return tr.Tolerance
}
