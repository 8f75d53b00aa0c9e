package protocol

import (
	"fmt"
	"strconv"
)

// Gridded is a protocol whose experiments run over a grid of its
// settings' alpha and tolerance values (the panel's).
type Gridded interface {
	// Grid is every cell of s's grid; one cell is no grid.
	Grid(s Settings) ([]Cell, error)
}

// Cell is one setting of the alpha × tolerance grid (Settings.Alphas and
// Tolerances).
type Cell struct {
	Alpha, Tolerance float64
}

// Label names the cell in table IDs and summary.json: "a0.3-t0.001".
func (c Cell) Label() string {
	return "a" + strconv.FormatFloat(c.Alpha, 'g', -1, 64) + "-t" + strconv.FormatFloat(c.Tolerance, 'g', -1, 64)
}

// Grid is every cell of s's alphas × tolerances (each list, when empty,
// is s.Alpha or s.Tolerance alone), checked: alpha in (0, 1], tolerance
// positive. One cell is no grid.
func Grid(s Settings) ([]Cell, error) {
	var out []Cell
	for _, a := range orOne(s.Alphas, s.Alpha) {
		if !(a > 0 && a <= 1) {
			return nil, fmt.Errorf("%s: %g is out of range (0, 1]", s.Field("alpha"), a)
		}
		for _, t := range orOne(s.Tolerances, s.Tolerance) {
			if !(t > 0) {
				return nil, fmt.Errorf("%s: %g is not positive", s.Field("tolerance"), t)
			}
			out = append(out, Cell{a, t})
		}
	}
	return out, nil
}

func orOne(xs []float64, x float64) []float64 {
	if len(xs) == 0 {
		return []float64{x}
	}
	return xs
}

// In returns s set to cell c: its alpha and tolerance, and no grid.
func (c Cell) In(s Settings) Settings {
	s.Alpha, s.Tolerance, s.Alphas, s.Tolerances = c.Alpha, c.Tolerance, nil, nil
	return s
}
