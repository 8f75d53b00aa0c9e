package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
)

// Scatter is a scatter plot of point series, each with an optional line
// through the origin fitted to it.
type Scatter struct {
	Title, XLabel, YLabel string
	Series                []Points
}

// Points is one series of a scatter plot; Slope, unless NaN, draws
// y = Slope·x over the series' x range.
type Points struct {
	Name  string
	X, Y  []float64
	Slope float64
}

// scatterPlot draws a scatter plot; NaN and infinite points are left out.
func scatterPlot(s *Scatter) (*plot.Plot, error) {
	p := gridPlot(s.Title, s.XLabel, s.YLabel)
	for i, ser := range s.Series {
		var pts plotter.XYs
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := range ser.X {
			if finite(ser.X[j]) && finite(ser.Y[j]) {
				pts = append(pts, plotter.XY{X: ser.X[j], Y: ser.Y[j]})
				lo, hi = math.Min(lo, ser.X[j]), math.Max(hi, ser.X[j])
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, fmt.Errorf("scatter %s, series %s: %w", s.Title, ser.Name, err)
		}
		sc.Color, sc.Shape = plotutil.Color(i), plotutil.Shape(i)
		p.Add(sc)
		p.Legend.Add(ser.Name, sc)
		if finite(ser.Slope) {
			l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: ser.Slope * lo}, {X: hi, Y: ser.Slope * hi}})
			if err != nil {
				return nil, err
			}
			l.Color = plotutil.Color(i)
			p.Add(l)
		}
	}
	return p, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
