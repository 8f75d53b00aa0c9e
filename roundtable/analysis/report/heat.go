package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
)

// grid adapts a Heat to plotter.GridXYZ: column c, row r at (c, r).
type grid struct{ h *Heat }

func (g grid) Dims() (int, int)   { return len(g.h.Cols), len(g.h.Rows) }
func (g grid) Z(c, r int) float64 { return g.h.Values[r][c] }
func (g grid) X(c int) float64    { return float64(c) }
func (g grid) Y(r int) float64    { return float64(r) }

// heatPlot draws a heat map with each cell's value written in it.
func heatPlot(h *Heat) (*plot.Plot, error) {
	if len(h.Rows) == 0 || len(h.Cols) == 0 {
		return nil, fmt.Errorf("heat map %q has no cells", h.Title)
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text = h.Title, h.XLabel
	cm := moreland.SmoothBlueRed() // blue low, white middle, red high
	cm.SetMin(h.Min)
	cm.SetMax(h.Max)
	hm := plotter.NewHeatMap(grid{h}, cm.Palette(24))
	hm.Min, hm.Max, hm.NaN = h.Min, h.Max, color.White
	p.Add(hm)
	var pts plotter.XYs
	var texts []string
	for r, row := range h.Values {
		for c, v := range row {
			if !math.IsNaN(v) {
				pts = append(pts, plotter.XY{X: float64(c), Y: float64(r)})
				texts = append(texts, fmt.Sprintf("%.2f", v))
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
			labels.TextStyle[i].Font.Size = 7
		}
		p.Add(labels)
	}
	p.NominalX(h.Cols...)
	p.NominalY(h.Rows...)
	return p, nil
}
