package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// chartPlot draws a line chart; NaN points are left out.
func chartPlot(c *Chart) (*plot.Plot, error) {
	p := gridPlot(c.Title, c.XLabel, c.YLabel)
	for i, l := range c.Lines {
		var pts plotter.XYs
		for r, y := range l.Y {
			if !math.IsNaN(y) && !math.IsInf(y, 0) {
				pts = append(pts, plotter.XY{X: float64(r + 1), Y: y})
			}
		}
		if len(pts) == 0 {
			continue
		}
		if l.Marks {
			rings, err := plotter.NewScatter(pts)
			if err != nil {
				return nil, fmt.Errorf("chart %s, marks %s: %w", c.Title, l.Name, err)
			}
			rings.Shape, rings.Radius, rings.Color = draw.RingGlyph{}, vg.Points(6), color.RGBA{R: 0xD5, G: 0x5E, A: 0xFF}
			p.Add(rings)
			p.Legend.Add(l.Name, rings)
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("chart %s, line %s: %w", c.Title, l.Name, err)
		}
		line.Color, points.Color = plotutil.Color(i), plotutil.Color(i)
		line.Dashes = plotutil.Dashes(i / 7)
		points.Shape = plotutil.Shape(i)
		p.Add(line, points)
		p.Legend.Add(l.Name, line, points)
	}
	if c.YMin < c.YMax {
		p.Y.Min, p.Y.Max = c.YMin, c.YMax
	}
	// Room right of the last round for the legend, so it hides no line.
	n := 0
	for _, l := range c.Lines {
		n = max(n, len(l.Y))
	}
	p.X.Min, p.X.Max = 1, float64(n)+0.3*float64(n)+1
	var ticks []plot.Tick
	every := max(1, (n+19)/20) // at most 20 labels
	for r := 1; r <= n; r++ {
		label := ""
		if (r-1)%every == 0 {
			label = fmt.Sprint(r)
		}
		ticks = append(ticks, plot.Tick{Value: float64(r), Label: label})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	return p, nil
}

// gridPlot is an empty plot with a title, axis labels, a grid and the
// legend at the top.
func gridPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	p.Add(plotter.NewGrid())
	p.Legend.Top = true
	return p
}

// graphPlot draws a transition graph: nodes on a circle, each edge a line
// from its source to a dot just short of its target, labelled with p.
func graphPlot(g *Graph) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = g.Title
	p.HideAxes()
	pos := map[string]plotter.XY{}
	var nodePts plotter.XYs
	var names []string
	for i, n := range g.Nodes {
		a := math.Pi/2 - 2*math.Pi*float64(i)/float64(len(g.Nodes))
		pos[n] = plotter.XY{X: math.Cos(a), Y: math.Sin(a)}
		nodePts = append(nodePts, pos[n])
		names = append(names, n)
	}
	var edgeLabels plotter.XYs
	var probs []string
	for i, e := range g.Edges {
		from, to := pos[e.From], pos[e.To]
		head := plotter.XY{X: from.X + 0.88*(to.X-from.X), Y: from.Y + 0.88*(to.Y-from.Y)}
		l, err := plotter.NewLine(plotter.XYs{from, head})
		if err != nil {
			return nil, fmt.Errorf("edge %s->%s: %w", e.From, e.To, err)
		}
		l.Color, l.Width = plotutil.Color(i), vg.Points(0.5+3*e.P)
		s, err := plotter.NewScatter(plotter.XYs{head})
		if err != nil {
			return nil, err
		}
		s.Color, s.Shape, s.Radius = plotutil.Color(i), draw.CircleGlyph{}, vg.Points(3)
		p.Add(l, s)
		edgeLabels = append(edgeLabels, plotter.XY{X: from.X + 0.55*(to.X-from.X), Y: from.Y + 0.55*(to.Y-from.Y)})
		probs = append(probs, fmt.Sprintf("%.2f", e.P))
	}
	dots, err := plotter.NewScatter(nodePts)
	if err != nil {
		return nil, err
	}
	dots.Shape, dots.Color, dots.Radius = draw.CircleGlyph{}, color.Gray{Y: 200}, vg.Points(24)
	nl, err := plotter.NewLabels(plotter.XYLabels{XYs: nodePts, Labels: names})
	if err != nil {
		return nil, err
	}
	center(nl)
	p.Add(dots, nl)
	if len(probs) > 0 {
		el, err := plotter.NewLabels(plotter.XYLabels{XYs: edgeLabels, Labels: probs})
		if err != nil {
			return nil, err
		}
		center(el)
		p.Add(el)
	}
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -1.3, 1.3, -1.3, 1.3
	return p, nil
}

func center(l *plotter.Labels) {
	for i := range l.TextStyle {
		l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
	}
}
