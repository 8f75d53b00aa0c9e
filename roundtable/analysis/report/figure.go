package report

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"os"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Figures are drawn 7 inches wide; the PNG at 240 dots per inch is 1680
// pixels wide, the SVG scales.
const (
	figureWidth  = 7 * vg.Inch
	figureHeight = 4.6 * vg.Inch
	pngDPI       = 240
)

// figure is a drawing of an artifact, of a given height.
type figure struct {
	height vg.Length
	draw   func(dc draw.Canvas) error
}

// figureOf is the figure of a, or the reason it has none: a chart without
// a line of two points, a heat map of one cell, a graph without an edge
// would say nothing a reader cannot read in the CSV.
func figureOf(a Artifact) (*figure, string) {
	switch {
	case a.Chart != nil:
		return chartFigure(a.Chart)
	case a.Scatter != nil:
		return scatterFigure(a.Scatter)
	case a.Heat != nil:
		return heatFigure(a.Heat)
	case a.Graph != nil:
		return graphsFigure(a.Graph.Title, []*Graph{a.Graph})
	case a.Graphs != nil:
		return graphsFigure(a.Graphs.Title, a.Graphs.Graphs)
	}
	return nil, ""
}

// figureMargin is the blank strip at a figure's top and right edges.
const figureMargin = vg.Length(6)

// render draws f as base.png and base.svg.
func render(f *figure, base string) ([]string, error) {
	img := vgimg.NewWith(vgimg.UseWH(figureWidth, f.height), vgimg.UseDPI(pngDPI), vgimg.UseBackgroundColor(color.White))
	svg := vgsvg.New(figureWidth, f.height)
	var files []string
	for _, out := range []struct {
		ext string
		c   vg.CanvasWriterTo
	}{{".png", fastPNG{img}}, {".svg", svg}} {
		dc := draw.New(out.c)
		if out.ext == ".svg" { // the PNG starts white; filling it again costs a pass over every pixel
			dc.SetColor(color.White)
			dc.Fill(dc.Rectangle.Path())
		}
		// A margin at the top and right: a title's capitals and a legend's
		// longest name would otherwise touch the edge.
		if err := f.draw(draw.Crop(dc, 0, -figureMargin, 0, -figureMargin)); err != nil {
			return files, fmt.Errorf("draw %s: %w", base, err)
		}
		if err := writeCanvas(out.c, base+out.ext); err != nil {
			return files, err
		}
		files = append(files, base+out.ext)
	}
	return files, nil
}

// fastPNG writes the canvas as a PNG (see writePNG).
type fastPNG struct{ *vgimg.Canvas }

func (c fastPNG) WriteTo(w io.Writer) (int64, error) {
	cw := &countingWriter{w: w}
	err := writePNG(cw, c.Image())
	return cw.n, err
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func writeCanvas(c vg.CanvasWriterTo, path string) error {
	fh, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if _, err := c.WriteTo(fh); err != nil {
		fh.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := fh.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// palette is Okabe and Ito's colour-blind-safe set, yellow last (it
// reads poorly on white).
var seriesColours = []color.Color{
	color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xFF}, // blue
	color.RGBA{R: 0xD5, G: 0x5E, B: 0x00, A: 0xFF}, // vermillion
	color.RGBA{R: 0x00, G: 0x9E, B: 0x73, A: 0xFF}, // bluish green
	color.RGBA{R: 0xCC, G: 0x79, B: 0xA7, A: 0xFF}, // reddish purple
	color.RGBA{R: 0xE6, G: 0x9F, B: 0x00, A: 0xFF}, // orange
	color.RGBA{R: 0x56, G: 0xB4, B: 0xE9, A: 0xFF}, // sky blue
	color.RGBA{A: 0xFF},                            // black
	color.RGBA{R: 0xF0, G: 0xE4, B: 0x42, A: 0xFF}, // yellow
}

// dashes and shapes go with the colours, so two series differ in colour,
// line and marker (and stay apart in grey print).
var (
	dashes = [][]vg.Length{{}, {vg.Points(7), vg.Points(3)}, {vg.Points(2), vg.Points(2)},
		{vg.Points(7), vg.Points(2), vg.Points(2), vg.Points(2)}, {vg.Points(12), vg.Points(4)}, {vg.Points(1), vg.Points(3)}}
	shapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.RingGlyph{},
		draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
)

func colour(i int) color.Color        { return seriesColours[i%len(seriesColours)] }
func dash(i int) []vg.Length          { return dashes[i%len(dashes)] }
func shape(i int) draw.GlyphDrawer    { return shapes[i%len(shapes)] }
func faded(c color.Color) color.Color { return withAlpha(c, 0x40) }

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	// premultiplied, as color.RGBA wants
	return color.RGBA{R: uint8(r >> 8 * uint32(a) / 0xFF), G: uint8(g >> 8 * uint32(a) / 0xFF), B: uint8(b >> 8 * uint32(a) / 0xFF), A: a}
}

// textStyle is the plots' font at size points.
func textStyle(size float64) draw.TextStyle {
	return text.Style{Font: font.From(plot.DefaultFont, vg.Points(size)), Handler: plot.DefaultTextHandler, Color: color.Black}
}

// withLegend draws p with its legend right of it, outside the data; an
// empty legend gives p the whole canvas.
func withLegend(dc draw.Canvas, p *plot.Plot, l plot.Legend) {
	r := l.Rectangle(dc)
	if r.Max.X == r.Min.X {
		p.Draw(dc)
		return
	}
	w := r.Max.X - r.Min.X + vg.Points(12)
	p.Draw(draw.Crop(dc, 0, -w, 0, 0))
	strip := draw.Crop(dc, dc.Max.X-dc.Min.X-w+vg.Points(6), 0, 0, -p.Title.TextStyle.Height(p.Title.Text)-vg.Points(12))
	l.Top, l.Left = true, true
	l.Draw(strip)
}

// newPlot is an empty plot on the figure's background: plot.Draw would
// paint its own, another pass over every pixel of a PNG.
func newPlot() *plot.Plot {
	p := plot.New()
	p.BackgroundColor = nil
	return p
}

// newLegend is an empty legend in the plots' font.
func newLegend() plot.Legend {
	l := plot.NewLegend()
	l.TextStyle.Font.Size = vg.Points(10.5)
	l.ThumbnailWidth = vg.Points(28)
	l.Padding = vg.Points(3)
	return l
}

// padY widens p's y axis by 4% of its range on each side, so no point
// sits on the frame.
func padY(p *plot.Plot) {
	pad := 0.04 * (p.Y.Max - p.Y.Min)
	if pad <= 0 { // one value: a unit-wide window around it
		pad = math.Max(0.5, 0.1*math.Abs(p.Y.Max))
	}
	p.Y.Min, p.Y.Max = p.Y.Min-pad, p.Y.Max+pad
}

// finite says x is a number.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
