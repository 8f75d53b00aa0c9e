package web

import (
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// lineChart is a chart of one line per series over the rounds, on a
// scale from Lo to Hi (a panel's mean sentiment per item). As the bar
// charts, it is drawn from numbers here; the series' names reach the page
// only as text (a legend, a tooltip), never in an SVG attribute.
type lineChart struct {
	Title, YLabel     string
	Width, Height     int
	Lo, Mid, Hi       string // the y axis's labels
	Series            []series
	Rounds            []roundTick
	Legend            []legendItem
	Empty             bool
	HiY, MidY, LoY, X float64 // geometry the template places labels with
}

type series struct {
	Class  string
	Points string // the polyline's points: numbers only
	Dots   []dot
}

type dot struct {
	X, Y float64
	Tip  string
}

type roundTick struct {
	X     float64
	Label string
}

// seriesClasses colour the lines (style.css), repeating past six.
var seriesClasses = []string{"s0", "s1", "s2", "s3", "s4", "s5"}

// sentimentChart draws the judges' mean sentiment per item after each
// round (means[r][i], a round nobody answered empty) on scale sc
// (from -1 to 1 without one).
func sentimentChart(items []string, means [][]float64, sc *roundtable.Scale) *lineChart {
	lo, hi := -1.0, 1.0
	if sc != nil && sc.Max > sc.Min {
		lo, hi = sc.Min, sc.Max
	}
	c := &lineChart{Title: "Mean sentiment per item after each round", YLabel: "mean sentiment",
		Width: int(2*chartPad + float64(max(len(means), 3))*(barW+barGap)), Height: int(chartH + 2*chartTop + 40),
		Lo: number(lo), Mid: number((lo + hi) / 2), Hi: number(hi),
		HiY: chartTop, MidY: chartTop + chartH/2, LoY: chartTop + chartH, X: chartPad - 8, Empty: true}
	x := func(r int) float64 { return chartPad + float64(r)*(barW+barGap) + barW/2 }
	y := func(v float64) float64 { return chartTop + chartH*(hi-min(hi, max(lo, v)))/(hi-lo) }
	for r := range means {
		c.Rounds = append(c.Rounds, roundTick{X: x(r), Label: fmt.Sprint(r + 1)})
	}
	for i, item := range items {
		s := series{Class: seriesClasses[i%len(seriesClasses)]}
		var pts []string
		for r, m := range means {
			if i >= len(m) {
				continue
			}
			d := dot{X: x(r), Y: y(m[i]), Tip: fmt.Sprintf("%s, round %d: %s", item, r+1, number(m[i]))}
			s.Dots = append(s.Dots, d)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", d.X, d.Y))
		}
		s.Points = strings.Join(pts, " ")
		c.Empty = c.Empty && len(pts) == 0
		c.Series = append(c.Series, s)
		c.Legend = append(c.Legend, legendItem{Class: s.Class, Label: item})
	}
	return c
}

// XLabelX is the x of the x axis's label.
func (c lineChart) XLabelX() float64 { return float64(c.Width) / 2 }

// XLabelY is the y of the x axis's label.
func (c lineChart) XLabelY() float64 { return chartTop + chartH + 36 }
