package report

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
)

func writeOne(t *testing.T, a Artifact) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	files, err := Write(dir, Report{Artifacts: []Artifact{a}}, "test")
	if err != nil {
		t.Fatal(err)
	}
	idx, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(idx), files
}

func hasExt(files []string, ext string) bool {
	for _, f := range files {
		if filepath.Ext(f) == ext {
			return true
		}
	}
	return false
}

// A degenerate figure is not drawn: the CSV is written, index.md says
// why, and a figure an earlier run left under the same name is removed.
func TestDegenerateFiguresAreNotDrawn(t *testing.T) {
	csv := [][]string{{"a"}, {"1"}}
	for _, a := range []Artifact{
		{Name: "point", CSV: csv, Chart: &Chart{Title: "one point", Lines: []Line{{Name: "x", Y: []float64{0.5}}}}},
		{Name: "empty", CSV: csv, Chart: &Chart{Title: "no value", Lines: []Line{{Name: "x", Y: []float64{math.NaN(), math.NaN()}}}}},
		{Name: "cell", CSV: csv, Heat: &Heat{Title: "1x1", Rows: []string{"r"}, Cols: []string{"c"}, Values: [][]float64{{0.3}}, Max: 1}},
		{Name: "lonely", CSV: csv, Scatter: &Scatter{Title: "one point", Series: []Points{{Name: "s", X: []float64{1}, Y: []float64{2}, Slope: math.NaN()}}}},
		{Name: "edgeless", CSV: csv, Graph: &Graph{Title: "no edge", Nodes: []string{acts.Start, acts.End}}},
	} {
		t.Run(a.Name, func(t *testing.T) {
			dir := t.TempDir()
			stale := filepath.Join(dir, a.Name+".png")
			if err := os.WriteFile(stale, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			files, err := Write(dir, Report{Artifacts: []Artifact{a}}, "test")
			if err != nil {
				t.Fatal(err)
			}
			if hasExt(files, ".png") || hasExt(files, ".svg") {
				t.Errorf("files %v: want no figure", files)
			}
			if _, err := os.Stat(stale); !os.IsNotExist(err) {
				t.Errorf("the stale %s is still there (%v)", stale, err)
			}
			idx, err := os.ReadFile(filepath.Join(dir, "index.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(idx), "No figure: ") {
				t.Errorf("index.md does not say why there is no figure:\n%s", idx)
			}
		})
	}
}

// Figures are PNGs at least 1600 pixels wide, with an SVG beside them.
func TestFiguresAreWideEnough(t *testing.T) {
	_, files := writeOne(t, Artifact{Name: "two", CSV: [][]string{{"a"}, {"1"}},
		Chart: &Chart{Title: "two points", Lines: []Line{{Name: "x", Y: []float64{1, 2}, SE: []float64{0.1, 0.2}}}}})
	for _, f := range files {
		if filepath.Ext(f) != ".png" {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(fh)
		fh.Close()
		if err != nil || cfg.Width < 1600 {
			t.Errorf("%s: %d pixels wide (%v), want at least 1600", f, cfg.Width, err)
		}
	}
	if !hasExt(files, ".svg") {
		t.Errorf("files %v: no SVG", files)
	}
}

// Series with the same values are drawn once under all their names; past
// maxLines distinct series the chart becomes small multiples.
func TestChartsMergeIdenticalSeriesAndSplitMany(t *testing.T) {
	var same []Line
	for i := range 8 {
		same = append(same, Line{Name: fmt.Sprintf("rule%d", i), Y: []float64{1, 2, 3}})
	}
	if m := merged(same); len(m) != 1 || !strings.Contains(m[0].Name, "rule0") || !strings.Contains(m[0].Name, "rule7") {
		t.Errorf("merged %+v, want one series named by all eight", m)
	}
	if f, _ := chartFigure(&Chart{Lines: same}); f == nil || f.height != figureHeight {
		t.Errorf("eight identical series: %+v, want one panel", f)
	}
	var apart []Line
	for i := range 8 {
		apart = append(apart, Line{Name: fmt.Sprintf("rule%d", i), Y: []float64{1, float64(i), 3}})
	}
	f, _ := chartFigure(&Chart{Title: "many", Lines: apart})
	if f == nil || f.height <= figureHeight {
		t.Fatalf("eight distinct series: %+v, want small multiples (taller than one panel)", f)
	}
	_, files := writeOne(t, Artifact{Name: "many", CSV: [][]string{{"a"}, {"1"}}, Chart: &Chart{Title: "many", Lines: apart}})
	if !hasExt(files, ".png") {
		t.Errorf("files %v: no PNG", files)
	}
}

func TestWrapBreaksLongListsOfNames(t *testing.T) {
	got := wrap("unanimous, majority, plurality, rated, ranked", 20)
	if want := "unanimous, majority,\nplurality, rated,\nranked"; got != want {
		t.Errorf("wrap = %q, want %q", got, want)
	}
}

// A heat map with values of both signs is coloured around zero; one of
// shares from light (0) to dark (1), with white text on dark cells.
func TestHeatColourScale(t *testing.T) {
	div, err := colorMap(&Heat{Min: -0.5, Max: 2})
	if err != nil || div.Min() != -2 || div.Max() != 2 {
		t.Errorf("diverging map over [%v, %v] (%v), want [-2, 2]", div.Min(), div.Max(), err)
	}
	seq, err := colorMap(&Heat{Min: 0, Max: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ink(seq, 0) != ink(seq, 0.05) || ink(seq, 1) == ink(seq, 0) {
		t.Error("text on the lightest and darkest cells has the same colour")
	}
}

// writePNG's unfiltered RGB PNG decodes to the pixels it was given; an
// image with transparency goes through image/png and keeps its alpha.
func TestWritePNGRoundTrips(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 37, 5))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	for i := 3; i < len(img.Pix); i += 4 {
		img.Pix[i] = 0xFF
	}
	var buf bytes.Buffer
	if err := writePNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for y := range 5 {
		for x := range 37 {
			if r1, g1, b1, a1 := got.At(x, y).RGBA(); [4]uint32{r1, g1, b1, a1} != func() [4]uint32 {
				r, g, b, a := img.At(x, y).RGBA()
				return [4]uint32{r, g, b, a}
			}() {
				t.Fatalf("pixel (%d, %d) = %v, want %v", x, y, got.At(x, y), img.At(x, y))
			}
		}
	}
	img.Pix[3] = 0x80
	buf.Reset()
	if err := writePNG(&buf, img); err != nil {
		t.Fatal(err)
	}
	if got, err := png.Decode(&buf); err != nil || got.At(0, 0).(color.NRGBA).A != 0x80 {
		t.Fatalf("translucent pixel: %v, %v", got.At(0, 0), err)
	}
}
