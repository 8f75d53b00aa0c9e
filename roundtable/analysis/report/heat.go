package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// grid adapts a Heat to plotter.GridXYZ: column c, row r at (c, r).
type grid struct{ h *Heat }

func (g grid) Dims() (int, int)   { return len(g.h.Cols), len(g.h.Rows) }
func (g grid) Z(c, r int) float64 { return g.h.Values[r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// colorBarWidth is the strip right of a heat map that holds its scale.
const colorBarWidth = 1.1 * vg.Inch

// heatFigure draws a heat map with each cell's value written in it and
// its colour scale beside it. A map of one cell, or of no value, is not
// drawn.
func heatFigure(h *Heat) (*figure, string) {
	cells := 0
	for _, row := range h.Values {
		cells += countFinite(row)
	}
	if len(h.Rows)*len(h.Cols) < 2 || cells == 0 {
		return nil, "a heat map of one cell"
	}
	return &figure{height: figureHeight, draw: func(dc draw.Canvas) error {
		cm, err := colorMap(h)
		if err != nil {
			return err
		}
		p, err := heatPlot(h, cm)
		if err != nil {
			return err
		}
		p.Draw(draw.Crop(dc, 0, -colorBarWidth, 0, 0))
		bar := newPlot()
		bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true})
		bar.HideX()
		bar.Y.Padding = 0
		bar.Title.Text = " " // the heat map's title height, so the bar lines up with the cells
		bar.Title.TextStyle = p.Title.TextStyle
		bar.Draw(draw.Crop(dc, dc.Max.X-dc.Min.X-colorBarWidth+vg.Points(14), -vg.Points(28), p.X.Tick.Label.Height("0")+p.X.Label.TextStyle.Height(p.X.Label.Text)+vg.Points(14), 0))
		return nil
	}}, ""
}

// colorMap is a sequential light-to-dark blue map over [Min, Max], or,
// when the values have both signs, a diverging blue-white-red map
// centred on zero.
func colorMap(h *Heat) (palette.ColorMap, error) {
	lo, hi := h.Min, h.Max
	if hi <= lo {
		hi = lo + 1
	}
	if lo < 0 && hi > 0 {
		cm := moreland.SmoothBlueRed()
		m := math.Max(-lo, hi)
		cm.SetMin(-m)
		cm.SetMax(m)
		return cm, nil
	}
	dark, err := moreland.NewLuminance([]color.Color{ // luminance rising, as NewLuminance wants
		color.NRGBA{R: 0x08, G: 0x30, B: 0x6B, A: 0xFF},
		color.NRGBA{R: 0x6B, G: 0xAE, B: 0xD6, A: 0xFF},
		color.NRGBA{R: 0xF7, G: 0xFB, B: 0xFF, A: 0xFF},
	})
	if err != nil {
		return nil, fmt.Errorf("heat map %q: colour map: %w", h.Title, err)
	}
	cm := palette.Reverse(dark)
	cm.SetMin(lo)
	cm.SetMax(hi)
	return cm, nil
}

// heatPlot draws the cells and their values, white on dark cells.
func heatPlot(h *Heat, cm palette.ColorMap) (*plot.Plot, error) {
	p := newPlot()
	p.Title.Text, p.X.Label.Text = h.Title, h.XLabel
	hm := plotter.NewHeatMap(grid{h}, cm.Palette(64))
	hm.Min, hm.Max, hm.NaN = cm.Min(), cm.Max(), color.White
	p.Add(hm)
	var pts plotter.XYs
	var texts []string
	var inks []color.Color
	for r, row := range h.Values {
		for c, v := range row {
			if !math.IsNaN(v) {
				pts = append(pts, plotter.XY{X: float64(c), Y: float64(r)})
				texts = append(texts, fmt.Sprintf("%.2f", v))
				inks = append(inks, ink(cm, v))
			}
		}
	}
	if len(pts) > 0 {
		labels, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: texts})
		if err != nil {
			return nil, err
		}
		for i := range labels.TextStyle {
			labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
			labels.TextStyle[i].Font.Size = vg.Points(8)
			labels.TextStyle[i].Color = inks[i]
		}
		p.Add(labels)
	}
	p.NominalX(h.Cols...)
	p.NominalY(h.Rows...)
	return p, nil
}

// ink is black on a light cell and white on a dark one.
func ink(cm palette.ColorMap, v float64) color.Color {
	c, err := cm.At(math.Max(cm.Min(), math.Min(cm.Max(), v)))
	if err != nil {
		return color.Black
	}
	r, g, b, _ := c.RGBA()
	if 0.2126*float64(r)+0.7152*float64(g)+0.0722*float64(b) < 0.5*0xFFFF {
		return color.White
	}
	return color.Black
}
