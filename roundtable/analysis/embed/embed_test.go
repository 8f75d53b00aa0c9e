package embed_test

import (
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

// Vectors with known cosines: (1,0) against (1,0) is 1, against (0,1) 0,
// against (1,1) 1/sqrt2, against (-1,0) -1.
func TestInfoDiffKnownCosines(t *testing.T) {
	prev := [][]float64{{1, 0}, {1, 0}} // centroid (1,0)
	tests := []struct {
		name string
		cur  [][]float64
		want float64
	}{
		{"same direction", [][]float64{{2, 0}}, 0},
		{"orthogonal", [][]float64{{0, 3}}, 1},
		{"opposite", [][]float64{{-1, 0}}, 2},
		{"45 degrees", [][]float64{{1, 1}}, 1 - 1/math.Sqrt2},
		{"mean of orthogonal and same", [][]float64{{0, 1}, {1, 0}}, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok, err := embed.InfoDiff(prev, tt.cur)
			if err != nil || !ok || !near(d, tt.want) {
				t.Fatalf("InfoDiff = %v, %v, %v; want %v", d, ok, err, tt.want)
			}
		})
	}
}

func TestInfoDiffCentroidOfPreviousRound(t *testing.T) {
	// centroid of (1,0) and (0,1) is (0.5,0.5): cos with (1,1) is 1.
	d, ok, err := embed.InfoDiff([][]float64{{1, 0}, {0, 1}}, [][]float64{{1, 1}})
	if err != nil || !ok || !near(d, 0) {
		t.Fatalf("got %v %v %v, want 0", d, ok, err)
	}
}

func TestRoundsFirstAndEmptyHaveNone(t *testing.T) {
	got, err := embed.Rounds([][][]float64{{{1, 0}}, {{0, 1}}, {}, {{1, 0}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []embed.RoundDiff{{Round: 1}, {Round: 2, Value: 1, OK: true}, {Round: 3}, {Round: 4}}
	for i := range want {
		if got[i].Round != want[i].Round || got[i].OK != want[i].OK || !near(got[i].Value, want[i].Value) {
			t.Fatalf("round %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

func TestCosineLengthMismatch(t *testing.T) {
	if _, err := embed.Cosine([]float64{1}, []float64{1, 2}); err == nil {
		t.Fatal("no error for vectors of different lengths")
	}
}

func TestHashedTFIDFDeterministicAndUnit(t *testing.T) {
	texts := []string{"We should share the apples fairly.", "Share the apples, fairly!", "Bananas are yellow.", ""}
	a, err := embed.HashedTFIDF{}.Embed(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := embed.HashedTFIDF{}.Embed(t.Context(), texts)
	for i := range a {
		if len(a[i]) != embed.DefaultDim {
			t.Fatalf("vector %d has length %d", i, len(a[i]))
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				t.Fatal("two runs differ")
			}
		}
	}
	same, _ := embed.Cosine(a[0], a[1])
	other, _ := embed.Cosine(a[0], a[2])
	if !(same > 0.5 && math.Abs(other) < 0.2) {
		t.Fatalf("cosine of paraphrases %v, of unrelated texts %v", same, other)
	}
	if n, _ := embed.Cosine(a[0], a[0]); !near(n, 1) {
		t.Fatalf("self cosine %v", n)
	}
}
