package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// graphPanelHeight is the height of one row of graphs drawn side by side.
const graphPanelHeight = 2.8 * vg.Inch

var (
	edgeInk  = color.RGBA{R: 0x1F, G: 0x3A, B: 0x5F, A: 0xFF}
	nodeFill = color.Gray{Y: 232}
)

// graphsFigure draws transition graphs: one on the whole figure, or
// several side by side under title, each titled by its own title. A graph
// without an edge is not drawn; if none has one there is no figure.
func graphsFigure(title string, graphs []*Graph) (*figure, string) {
	var gs []*Graph
	for _, g := range graphs {
		if len(g.Edges) > 0 {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 {
		return nil, "no transition between two acts"
	}
	if len(graphs) == 1 {
		return &figure{height: figureHeight, draw: func(dc draw.Canvas) error {
			drawGraph(dc, gs[0], 11)
			return nil
		}}, ""
	}
	cols := min(3, len(gs))
	rows := (len(gs) + cols - 1) / cols
	head := textStyle(13).Height(title) + vg.Points(10)
	return &figure{height: head + vg.Length(rows)*graphPanelHeight, draw: func(dc draw.Canvas) error {
		st := textStyle(13)
		st.XAlign = draw.XCenter
		dc.FillText(st, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - st.Height(title)}, title)
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(6), PadY: vg.Points(6), PadTop: head}
		for i, g := range gs {
			tile := tiles.At(dc, i%cols, i/cols)
			outline := draw.LineStyle{Color: color.Gray{Y: 210}, Width: vg.Points(0.5)}
			tile.StrokeLines(outline, []vg.Point{tile.Min, {X: tile.Max.X, Y: tile.Min.Y}, tile.Max, {X: tile.Min.X, Y: tile.Max.Y}, tile.Min})
			drawGraph(tile, g, 8)
		}
		return nil
	}}, ""
}

// box is a node's label box on the canvas.
type box struct {
	c      vg.Point
	hw, hh vg.Length
}

// exit is where the ray from the box's centre along (dx, dy) leaves it.
func (b box) exit(dx, dy vg.Length) vg.Point {
	t := math.Inf(1)
	if dx != 0 {
		t = math.Abs(float64(b.hw / dx))
	}
	if dy != 0 {
		t = math.Min(t, math.Abs(float64(b.hh/dy)))
	}
	return vg.Point{X: b.c.X + vg.Length(t)*dx, Y: b.c.Y + vg.Length(t)*dy}
}

// drawGraph draws g in dc: its title on top, the nodes on an ellipse as
// labelled boxes, each edge an arrow whose width grows with p, labelled
// with p.
func drawGraph(dc draw.Canvas, g *Graph, size float64) {
	title := textStyle(size + 2)
	title.XAlign = draw.XCenter
	dc.FillText(title, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: dc.Max.Y - title.Height(g.Title) - vg.Points(4)}, g.Title)
	label := textStyle(size)
	label.XAlign, label.YAlign = draw.XCenter, draw.YCenter
	boxes := map[string]box{}
	wide := vg.Length(0)
	for _, n := range g.Nodes {
		wide = max(wide, label.Width(n))
	}
	cx, cy := (dc.Min.X+dc.Max.X)/2, (dc.Min.Y+dc.Max.Y)/2-title.Height(g.Title)/2
	rx := (dc.Max.X-dc.Min.X)/2 - wide/2 - vg.Points(10)
	ry := (dc.Max.Y-dc.Min.Y)/2 - title.Height(g.Title) - label.Height("X") - vg.Points(10)
	for i, n := range g.Nodes {
		a := math.Pi/2 - 2*math.Pi*float64(i)/float64(len(g.Nodes))
		boxes[n] = box{c: vg.Point{X: cx + rx*vg.Length(math.Cos(a)), Y: cy + ry*vg.Length(math.Sin(a))},
			hw: label.Width(n)/2 + vg.Points(size*0.5), hh: label.Height(n)/2 + vg.Points(size*0.35)}
	}
	top := 0.0
	for _, e := range g.Edges {
		top = math.Max(top, e.P)
	}
	for _, e := range g.Edges {
		drawEdge(dc, boxes[e.From], boxes[e.To], e.P, top, size)
	}
	for _, n := range g.Nodes {
		b := boxes[n]
		rect := []vg.Point{{X: b.c.X - b.hw, Y: b.c.Y - b.hh}, {X: b.c.X + b.hw, Y: b.c.Y - b.hh}, {X: b.c.X + b.hw, Y: b.c.Y + b.hh}, {X: b.c.X - b.hw, Y: b.c.Y + b.hh}}
		fill, pen := nodeFill, draw.LineStyle{Color: color.Gray{Y: 120}, Width: vg.Points(0.6)}
		if strings.EqualFold(n, "Start") || strings.EqualFold(n, "End") {
			fill, pen.Dashes = color.Gray{Y: 255}, []vg.Length{vg.Points(2), vg.Points(2)}
		}
		dc.FillPolygon(fill, rect)
		dc.StrokeLines(pen, append(rect, rect[0]))
		dc.FillText(label, b.c, n)
	}
}

// drawEdge draws an arrow from box a to box b, shifted a little to its
// right so that two opposite edges stay apart, its width p/top of the
// widest, and p written beside its middle.
func drawEdge(dc draw.Canvas, a, b box, p, top, size float64) {
	dx, dy := b.c.X-a.c.X, b.c.Y-a.c.Y
	l := vg.Length(math.Hypot(float64(dx), float64(dy)))
	if l == 0 {
		return
	}
	ux, uy := dx/l, dy/l
	shift := vg.Points(size * 0.3)
	nx, ny := uy*shift, -ux*shift
	from, to := a.exit(dx, dy), b.exit(-dx, -dy)
	from.X, from.Y, to.X, to.Y = from.X+nx, from.Y+ny, to.X+nx, to.Y+ny
	head := vg.Points(size * 0.8)
	base := vg.Point{X: to.X - ux*head, Y: to.Y - uy*head}
	w := vg.Points(0.8 + 3.2*p/top)
	dc.StrokeLine2(draw.LineStyle{Color: edgeInk, Width: w}, from.X, from.Y, base.X, base.Y)
	half := head*0.45 + w/2
	dc.FillPolygon(edgeInk, []vg.Point{to, {X: base.X + uy*half, Y: base.Y - ux*half}, {X: base.X - uy*half, Y: base.Y + ux*half}})
	st := textStyle(size - 1)
	st.XAlign, st.YAlign = draw.XCenter, draw.YCenter
	txt := fmt.Sprintf("%.2f", p)
	at := vg.Point{X: (from.X+base.X)/2 + nx*3, Y: (from.Y+base.Y)/2 + ny*3}
	hw, hh := st.Width(txt)/2+vg.Points(1.5), st.Height(txt)/2+vg.Points(0.5)
	dc.FillPolygon(color.White, []vg.Point{{X: at.X - hw, Y: at.Y - hh}, {X: at.X + hw, Y: at.Y - hh}, {X: at.X + hw, Y: at.Y + hh}, {X: at.X - hw, Y: at.Y + hh}})
	dc.FillText(st, at, txt)
}
