package analysis_test

import (
	"context"
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
)

// fixedEmbedder maps known texts to known vectors.
type fixedEmbedder map[string][]float64

func (f fixedEmbedder) Model() string { return "fixed" }
func (f fixedEmbedder) Embed(_ context.Context, texts []string) ([][]float64, error) {
	out := make([][]float64, len(texts))
	for i, t := range texts {
		out[i] = f[t]
	}
	return out, nil
}

// Round 1: (1,0) and (0,1), centroid (0.5,0.5). Round 2: (1,1) has cosine
// 1 with it, (1,0) has 1/sqrt2: mean distance (0 + 1-1/sqrt2)/2. Round 3
// has no message; round 4 follows it and has none either.
func TestInfoDiffLogKnownCosines(t *testing.T) {
	e := fixedEmbedder{"a": {1, 0}, "b": {0, 1}, "c": {1, 1}, "d": {1, 0}, "e": {0, 1}}
	msg := func(seq uint64, round int, text string) roundtable.Event {
		return roundtable.Event{Table: "t", Seq: seq, Data: roundtable.MessagePosted{Round: round, Text: text}}
	}
	log := []roundtable.Event{msg(1, 1, "a"), msg(2, 1, "b"), msg(3, 2, "c"), msg(4, 2, "d"), msg(5, 4, "e")}
	got, err := analysis.InfoDiffLog(t.Context(), log, e)
	if err != nil {
		t.Fatal(err)
	}
	want := (1 - 1/math.Sqrt2) / 2
	if len(got) != 4 || got[0].OK || !got[1].OK || math.Abs(got[1].Value-want) > 1e-12 || got[2].OK || got[3].OK {
		t.Fatalf("got %+v, want round 2 = %v and no other", got, want)
	}
}
