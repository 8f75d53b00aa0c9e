package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// maxLines is the most series one panel shows; a chart with more is
// drawn as small multiples, one panel per series.
const maxLines = 6

// chartFigure draws a line chart: one panel with the legend right of it,
// identical series drawn once under all their names; or, past maxLines
// series, small multiples.
func chartFigure(c *Chart) (*figure, string) {
	var lines, marks []Line
	long := false
	for _, l := range c.Lines {
		n := countFinite(l.Y)
		switch {
		case n == 0:
		case l.Marks:
			marks = append(marks, l)
		default:
			lines = append(lines, l)
			long = long || n >= 2
		}
	}
	if !long {
		return nil, "no series has two points"
	}
	if m := merged(lines); len(m) <= maxLines {
		return &figure{height: figureHeight, draw: func(dc draw.Canvas) error { return linePanel(dc, c, m, marks) }}, ""
	}
	return smallMultiples(c, lines, marks), ""
}

func countFinite(ys []float64) int {
	n := 0
	for _, y := range ys {
		if finite(y) {
			n++
		}
	}
	return n
}

// merged draws lines with the same values once, named by all of them.
func merged(lines []Line) []Line {
	var out []Line
	for _, l := range lines {
		i := slices.IndexFunc(out, func(o Line) bool { return sameSeries(o.Y, l.Y) && sameSeries(o.SE, l.SE) })
		if i < 0 {
			out = append(out, l)
			continue
		}
		out[i].Name += ", " + l.Name
	}
	for i := range out {
		out[i].Name = wrap(out[i].Name, 30)
	}
	return out
}

func sameSeries(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || math.IsNaN(x) && math.IsNaN(y) })
}

// wrap breaks a comma-separated list of names into lines of about width
// characters.
func wrap(s string, width int) string {
	var b strings.Builder
	col := 0
	for i, part := range strings.Split(s, ", ") {
		if i > 0 {
			if col+len(part)+2 > width {
				b.WriteString(",\n")
				col = 0
			} else {
				b.WriteString(", ")
				col += 2
			}
		}
		b.WriteString(part)
		col += len(part)
	}
	return b.String()
}

// linePanel draws lines in one panel, each with its own colour, dashes
// and marker, standard errors as bars (the series dodged apart so bars do
// not hide each other), and the legend outside the data.
func linePanel(dc draw.Canvas, c *Chart, lines, marks []Line) error {
	p := gridPlot(c.Title, c.XLabel, c.YLabel)
	legend := newLegend()
	step := 0.0
	if slices.ContainsFunc(lines, func(l Line) bool { return l.SE != nil }) && len(lines) > 1 {
		step = math.Min(0.08, 0.4/float64(len(lines)))
	}
	for i, l := range lines {
		off := step * (float64(i) - float64(len(lines)-1)/2)
		pts, errs := points(l, off)
		line, glyphs, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("chart %s, line %s: %w", c.Title, l.Name, err)
		}
		line.Color, line.Dashes, line.Width = colour(i), dash(i), vg.Points(1.5)
		glyphs.Color, glyphs.Shape, glyphs.Radius = colour(i), shape(i), vg.Points(3)
		p.Add(line, glyphs)
		if len(errs.YErrors) > 0 {
			bars, err := plotter.NewYErrorBars(errs)
			if err != nil {
				return fmt.Errorf("chart %s, error bars of %s: %w", c.Title, l.Name, err)
			}
			bars.Color, bars.CapWidth = colour(i), vg.Points(5)
			p.Add(bars)
		}
		legend.Add(l.Name, line, glyphs)
	}
	for _, m := range marks {
		rings, err := markRings(m, func(int, float64) bool { return true })
		if err != nil {
			return fmt.Errorf("chart %s, marks %s: %w", c.Title, m.Name, err)
		}
		p.Add(rings)
		legend.Add(m.Name, rings)
	}
	if step > 0 {
		legend.Add("bars: ±1 standard error")
	}
	roundAxes(p, c, rounds(c.Lines))
	withLegend(dc, p, legend)
	return nil
}

// errXYs are points with their standard errors, for plotter.YErrorBars.
type errXYs struct {
	plotter.XYs
	plotter.YErrors
}

// points are l's finite points at x = round + off, and those with a
// standard error again with it.
func points(l Line, off float64) (plotter.XYs, errXYs) {
	var pts plotter.XYs
	var errs errXYs
	for r, y := range l.Y {
		if !finite(y) {
			continue
		}
		xy := plotter.XY{X: float64(r+1) + off, Y: y}
		pts = append(pts, xy)
		if r < len(l.SE) && finite(l.SE[r]) && l.SE[r] > 0 {
			errs.XYs = append(errs.XYs, xy)
			errs.YErrors = append(errs.YErrors, struct{ Low, High float64 }{l.SE[r], l.SE[r]})
		}
	}
	return pts, errs
}

// markRings rings m's points that keep says to keep.
func markRings(m Line, keep func(r int, y float64) bool) (*plotter.Scatter, error) {
	var pts plotter.XYs
	for r, y := range m.Y {
		if finite(y) && keep(r, y) {
			pts = append(pts, plotter.XY{X: float64(r + 1), Y: y})
		}
	}
	rings, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	rings.Shape, rings.Radius, rings.Color = draw.RingGlyph{}, vg.Points(7), color.RGBA{R: 0xD5, G: 0x5E, A: 0xFF}
	return rings, nil
}

func rounds(lines []Line) int {
	n := 0
	for _, l := range lines {
		n = max(n, len(l.Y))
	}
	return n
}

// roundAxes fixes the y axis where c asks and puts a tick on each round
// (at most 20 labelled).
func roundAxes(p *plot.Plot, c *Chart, n int) {
	if c.YMin < c.YMax {
		p.Y.Min, p.Y.Max = c.YMin, c.YMax
	} else {
		padY(p)
	}
	p.X.Min, p.X.Max = 0.6, float64(n)+0.4
	var ticks []plot.Tick
	every := max(1, (n+19)/20)
	for r := 1; r <= n; r++ {
		label := ""
		if (r-1)%every == 0 {
			label = fmt.Sprint(r)
		}
		ticks = append(ticks, plot.Tick{Value: float64(r), Label: label})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
}

// gridPlot is an empty plot with a title, axis labels and a grid.
func gridPlot(title, x, y string) *plot.Plot {
	p := newPlot()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = color.Gray{Y: 225}, color.Gray{Y: 225}
	p.Add(g)
	return p
}
