package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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

// scatterFigure draws a scatter plot, the legend right of it; NaN and
// infinite points are left out. Fewer than two points make no figure.
func scatterFigure(s *Scatter) (*figure, string) {
	n := 0
	for _, ser := range s.Series {
		for j := range ser.X {
			if j < len(ser.Y) && finite(ser.X[j]) && finite(ser.Y[j]) {
				n++
			}
		}
	}
	if n < 2 {
		return nil, "fewer than two points"
	}
	return &figure{height: figureHeight, draw: func(dc draw.Canvas) error {
		p, l, err := scatterPlot(s)
		if err != nil {
			return err
		}
		withLegend(dc, p, l)
		return nil
	}}, ""
}

func scatterPlot(s *Scatter) (*plot.Plot, plot.Legend, error) {
	p := gridPlot(s.Title, s.XLabel, s.YLabel)
	legend := newLegend()
	for i, ser := range s.Series {
		var pts plotter.XYs
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := range ser.X {
			if j < len(ser.Y) && finite(ser.X[j]) && finite(ser.Y[j]) {
				pts = append(pts, plotter.XY{X: ser.X[j], Y: ser.Y[j]})
				lo, hi = math.Min(lo, ser.X[j]), math.Max(hi, ser.X[j])
			}
		}
		if len(pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, legend, fmt.Errorf("scatter %s, series %s: %w", s.Title, ser.Name, err)
		}
		sc.Color, sc.Shape, sc.Radius = colour(i), openShapes[i%len(openShapes)], vg.Points(2.5)
		p.Add(sc)
		if !finite(ser.Slope) {
			legend.Add(ser.Name, sc)
			continue
		}
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: ser.Slope * lo}, {X: hi, Y: ser.Slope * hi}})
		if err != nil {
			return nil, legend, err
		}
		l.Color, l.Dashes, l.Width = colour(i), dash(i), vg.Points(1.5)
		p.Add(l)
		legend.Add(fmt.Sprintf("%s (slope %.3g)", ser.Name, ser.Slope), sc, l)
	}
	padY(p)
	return p, legend, nil
}

// openShapes are outlines, so that points on top of each other show.
var openShapes = []draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
