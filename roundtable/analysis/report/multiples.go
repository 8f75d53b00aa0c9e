package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// panelHeight is the height of one row of small multiples.
const panelHeight = 1.8 * vg.Inch

// smallMultiples draws one panel per line, on shared axes: the line in
// colour with its standard-error band, the other lines in light grey
// behind it, and the marks that fall on it.
func smallMultiples(c *Chart, lines, marks []Line) *figure {
	cols := 3
	if len(lines) > 9 {
		cols = 4
	}
	rows := (len(lines) + cols - 1) / cols
	title, note := textStyle(13), textStyle(9)
	caption := ""
	for _, l := range lines {
		if countFinite(l.SE) > 0 {
			caption = "shaded: ±1 standard error; grey: the other series"
		}
	}
	head := title.Height(c.Title) + note.Height(caption) + vg.Points(12)
	return &figure{height: head + vg.Length(rows)*panelHeight, draw: func(dc draw.Canvas) error {
		title.XAlign, note.XAlign = draw.XCenter, draw.XCenter
		top := dc.Max.Y - title.Height(c.Title)
		dc.FillText(title, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: top}, c.Title)
		if caption != "" {
			dc.FillText(note, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: top - note.Height(caption) - vg.Points(2)}, caption)
		}
		lo, hi := yRange(c, lines)
		plots := make([][]*plot.Plot, rows)
		for r := range plots {
			plots[r] = make([]*plot.Plot, cols)
		}
		for i, l := range lines {
			p, err := multiple(c, lines, marks, i)
			if err != nil {
				return err
			}
			row, col := i/cols, i%cols
			if i+cols >= len(lines) { // the lowest panel of its column
				p.X.Label.Text = c.XLabel
			}
			if col == 0 {
				p.Y.Label.Text = c.YLabel
			}
			p.Title.Text = l.Name
			p.Y.Min, p.Y.Max = lo, hi // after roundAxes: the panels share it
			plots[row][col] = p
		}
		body := draw.Crop(dc, 0, 0, 0, -head)
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(8), PadY: vg.Points(8), PadTop: vg.Points(2), PadLeft: vg.Points(4), PadRight: vg.Points(8), PadBottom: vg.Points(4)}
		cells := plot.Align(plots, tiles, body)
		for r := range plots {
			for k, p := range plots[r] {
				if p != nil {
					p.Draw(cells[r][k])
				}
			}
		}
		return nil
	}}
}

// multiple is the panel of lines[i].
func multiple(c *Chart, lines, marks []Line, i int) (*plot.Plot, error) {
	p := gridPlot("", "", "")
	p.Title.TextStyle.Font.Size = vg.Points(11)
	for j, o := range lines {
		if j == i {
			continue
		}
		pts, _ := points(o, 0)
		grey, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("chart %s, line %s: %w", c.Title, o.Name, err)
		}
		grey.Color, grey.Width = color.Gray{Y: 200}, vg.Points(0.8)
		p.Add(grey)
	}
	l := lines[i]
	pts, errs := points(l, 0)
	if len(errs.XYs) > 1 {
		band, err := plotter.NewPolygon(bandOf(errs))
		if err != nil {
			return nil, fmt.Errorf("chart %s, band of %s: %w", c.Title, l.Name, err)
		}
		band.Color, band.LineStyle.Width = faded(colour(i)), 0
		p.Add(band)
	}
	line, glyphs, err := plotter.NewLinePoints(pts)
	if err != nil {
		return nil, fmt.Errorf("chart %s, line %s: %w", c.Title, l.Name, err)
	}
	line.Color, line.Width = colour(i), vg.Points(1.5)
	glyphs.Color, glyphs.Shape, glyphs.Radius = colour(i), shape(i), vg.Points(2.5)
	p.Add(line, glyphs)
	for _, m := range marks {
		rings, err := markRings(m, func(r int, y float64) bool { return r < len(l.Y) && l.Y[r] == y })
		if err != nil {
			return nil, fmt.Errorf("chart %s, marks %s: %w", c.Title, m.Name, err)
		}
		p.Add(rings)
	}
	roundAxes(p, c, rounds(lines))
	return p, nil
}

// bandOf is the polygon mean ± standard error along the points.
func bandOf(e errXYs) plotter.XYs {
	band := make(plotter.XYs, 0, 2*len(e.XYs))
	for k, xy := range e.XYs {
		band = append(band, plotter.XY{X: xy.X, Y: xy.Y + e.YErrors[k].High})
	}
	for k := len(e.XYs) - 1; k >= 0; k-- {
		band = append(band, plotter.XY{X: e.XYs[k].X, Y: e.XYs[k].Y - e.YErrors[k].Low})
	}
	return band
}

// yRange is the y axis the panels share: c's, or the range of every
// value with its standard error.
func yRange(c *Chart, lines []Line) (float64, float64) {
	if c.YMin < c.YMax {
		return c.YMin, c.YMax
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range lines {
		for r, y := range l.Y {
			if !finite(y) {
				continue
			}
			e := 0.0
			if r < len(l.SE) && finite(l.SE[r]) {
				e = l.SE[r]
			}
			lo, hi = math.Min(lo, y-e), math.Max(hi, y+e)
		}
	}
	if lo == hi {
		lo, hi = lo-1, hi+1
	}
	pad := 0.05 * (hi - lo)
	return lo - pad, hi + pad
}
