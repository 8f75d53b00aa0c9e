package protocol

import (
	"fmt"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Gridded is a protocol whose experiments run over a grid of its
// settings' alpha, tolerance and temperature values (the panel's).
type Gridded interface {
	// Grid is every cell of s's grid; one cell is no grid.
	Grid(s Settings) ([]Cell, error)
}

// Cell is one setting of the alpha × tolerance × temperature grid
// (Settings.Alphas, Tolerances and Temperatures).
type Cell struct {
	Alpha, Tolerance float64
	// Temperature is the models' sampling temperature when HasTemperature;
	// without, each endpoint's own.
	Temperature    float64
	HasTemperature bool
}

// Label names the cell in table IDs and summary.json: "a0.3-t0.001",
// with "-T0.7" when it sets a temperature.
func (c Cell) Label() string {
	l := "a" + strconv.FormatFloat(c.Alpha, 'g', -1, 64) + "-t" + strconv.FormatFloat(c.Tolerance, 'g', -1, 64)
	if c.HasTemperature {
		l += "-T" + strconv.FormatFloat(c.Temperature, 'g', -1, 64)
	}
	return l
}

// Grid is every cell of s's alphas × tolerances × temperatures (the
// first two lists, when empty, are s.Alpha or s.Tolerance alone; no
// temperature leaves the endpoints' own), checked: alpha in (0, 1],
// tolerance positive, temperature in 0..2. One cell is no grid.
func Grid(s Settings) ([]Cell, error) {
	for _, T := range s.Temperatures {
		if !(T >= 0 && T <= 2) {
			return nil, fmt.Errorf("%s: %g is out of range 0..2", s.Field("temperature"), T)
		}
	}
	var out []Cell
	for _, a := range orOne(s.Alphas, s.Alpha) {
		if !(a > 0 && a <= 1) {
			return nil, fmt.Errorf("%s: %g is out of range (0, 1]", s.Field("alpha"), a)
		}
		for _, t := range orOne(s.Tolerances, s.Tolerance) {
			if !(t > 0) {
				return nil, fmt.Errorf("%s: %g is not positive", s.Field("tolerance"), t)
			}
			if len(s.Temperatures) == 0 {
				out = append(out, Cell{Alpha: a, Tolerance: t})
			}
			for _, T := range s.Temperatures {
				out = append(out, Cell{Alpha: a, Tolerance: t, Temperature: T, HasTemperature: true})
			}
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

// In returns s set to cell c: its alpha, tolerance and temperature, and
// no grid.
func (c Cell) In(s Settings) Settings {
	s.Alpha, s.Tolerance, s.Alphas, s.Tolerances, s.Temperatures = c.Alpha, c.Tolerance, nil, nil, nil
	if c.HasTemperature {
		s.Temperatures = []float64{c.Temperature}
	}
	return s
}

// CellOf is the grid cell a table of schedule pr ran in: the alpha,
// tolerance and temperature its preset recorded.
func CellOf(pr *roundtable.Protocol, alpha float64) Cell {
	c := Cell{Alpha: pr.Param("alpha", alpha), Tolerance: pr.Stop.Tolerance}
	if v, ok := pr.Params["temperature"]; ok {
		if T, err := strconv.ParseFloat(v, 64); err == nil {
			c.Temperature, c.HasTemperature = T, true
		}
	}
	return c
}
