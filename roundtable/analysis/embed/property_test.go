package embed_test

import (
	"math"
	"testing"

	"pgregory.net/rapid"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
)

func vectors(dim int) *rapid.Generator[[][]float64] {
	return rapid.SliceOfN(rapid.SliceOfN(rapid.Float64Range(-10, 10), dim, dim), 1, 6)
}

// The information difference is a mean cosine distance: it lies in
// [0, 2], is 0 when a round repeats the previous one's single direction,
// and does not change when vectors are scaled.
func TestInfoDiffProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dim := rapid.IntRange(1, 8).Draw(t, "dim")
		prev, cur := vectors(dim).Draw(t, "prev"), vectors(dim).Draw(t, "cur")
		d, ok, err := embed.InfoDiff(prev, cur)
		if err != nil || !ok || d < -1e-9 || d > 2+1e-9 {
			t.Fatalf("InfoDiff = %v, %v, %v", d, ok, err)
		}
		k := rapid.Float64Range(0.1, 100).Draw(t, "scale")
		scaled := make([][]float64, len(cur))
		for i, v := range cur {
			for _, x := range v {
				scaled[i] = append(scaled[i], k*x)
			}
		}
		if d2, _, _ := embed.InfoDiff(prev, scaled); math.Abs(d-d2) > 1e-9 {
			t.Fatalf("scaling by %v moved it from %v to %v", k, d, d2)
		}
		c := embed.Centroid(prev)
		if d0, _, _ := embed.InfoDiff(prev, [][]float64{c}); norm(c) > 1e-9 && math.Abs(d0) > 1e-9 {
			t.Fatalf("the centroid itself is %v away", d0)
		}
	})
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}
