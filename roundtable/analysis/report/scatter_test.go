package report

import (
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/report/reporttest"
)

func TestWriteDrawsScatterPlots(t *testing.T) {
	a := Artifact{Name: "bias", Title: "Figure", About: "Points and slopes.", CSV: [][]string{{"x"}, {"0.2"}},
		Scatter: &Scatter{Title: "Bias", XLabel: "x", YLabel: "y", Series: []Points{
			{Name: "positive", X: []float64{0.2, 0.4, math.NaN()}, Y: []float64{0.1, 0.3, 1}, Slope: 0.7},
			{Name: "negative", X: []float64{-0.5}, Y: []float64{-0.2}, Slope: math.NaN()},
			{Name: "empty"},
		}}}
	files, err := Write(t.TempDir(), Report{Artifacts: []Artifact{a}}, "A scatter.")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 { // csv, png, svg, index.md
		t.Fatalf("files %v", files)
	}
	reporttest.CheckFiles(t, files)
}
