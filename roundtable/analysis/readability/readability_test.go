package readability_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/readability"
)

func newMeter(t *testing.T) *readability.Meter {
	t.Helper()
	s, err := prose.NewSplitter()
	if err != nil {
		t.Fatal(err)
	}
	return readability.New(s)
}

// The counts below were made by hand, syllable by syllable.
func TestMeasureHandCountedTexts(t *testing.T) {
	m := newMeter(t)
	tests := []struct {
		name, text string
		want       readability.Stats
	}{
		// The(1) cat(1) sat(1) on(1) the(1) mat(1): 6 words, 6 syllables.
		// 0.39*6 + 11.8*1 - 15.59 = -1.45
		{"one short sentence", "The cat sat on the mat.", readability.Stats{6, 1, 6, -1.45}},
		// Dr(1) Smith(1) arrived(2) late(1) | He(1) wanted(2) a(1)
		// table(2): 8 words, 11 syllables, 2 sentences ("Dr." does not end one).
		// 0.39*4 + 11.8*11/8 - 15.59 = 1.56 + 16.225 - 15.59 = 2.195
		{"abbreviation does not split", "Dr. Smith arrived late. He wanted a table.", readability.Stats{8, 2, 11, 2.195}},
		// We(1) don't(1) agree(2) | The(1) well-known(2) proposal(3)
		// makes(1) everyone(3) happy(2): 9 words, 16 syllables, 2 sentences.
		// 0.39*4.5 + 11.8*16/9 - 15.59 = 1.755 + 20.9778 - 15.59 = 7.1428
		{"apostrophes and hyphens stay inside words", "We don't agree! The well-known proposal makes everyone happy.", readability.Stats{9, 2, 16, 7.1428}},
		{"no words", "  ... !! ", readability.Stats{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := m.Measure(tt.text); got != tt.want {
				t.Fatalf("Measure(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
		})
	}
}

func TestGradeFormula(t *testing.T) {
	// 100 words, 5 sentences, 150 syllables: 0.39*20 + 11.8*1.5 - 15.59 = 9.91
	if g := readability.Grade(100, 5, 150); g != 9.91 {
		t.Fatalf("Grade = %v, want 9.91", g)
	}
}
