package readability_test

import (
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/readability"
)

func newMeter(t *testing.T) (*readability.Meter, *prose.Splitter, *prose.Dictionary) {
	t.Helper()
	s, err := prose.NewSplitter()
	if err != nil {
		t.Fatal(err)
	}
	d, err := prose.LoadDictionary()
	if err != nil {
		t.Fatal(err)
	}
	return readability.New(s, d), s, d
}

// The counts below were made by hand from the CMU Pronouncing
// Dictionary's first pronunciations, vowel phoneme by vowel phoneme.
func TestMeasureHandCountedTexts(t *testing.T) {
	m, _, _ := newMeter(t)
	tests := []struct {
		name, text string
		want       readability.Stats
	}{
		// The(1) cat(1) sat(1) on(1) the(1) mat(1): 6 words, 6 syllables.
		// 0.39*6 + 11.8*1 - 15.59 = -1.45
		{"one short sentence", "The cat sat on the mat.", readability.Stats{Words: 6, Sentences: 1, Syllables: 6, FKGrade: -1.45}},
		// Dr(1, D R AY1 V) Smith(1) arrived(2, ER0 AY1 V D) late(1) | He(1)
		// wanted(2) a(1) table(2): 8 words, 11 syllables, 2 sentences
		// ("Dr." does not end one).
		// 0.39*4 + 11.8*11/8 - 15.59 = 1.56 + 16.225 - 15.59 = 2.195
		{"abbreviation does not split", "Dr. Smith arrived late. He wanted a table.", readability.Stats{Words: 8, Sentences: 2, Syllables: 11, FKGrade: 2.195}},
		// We(1) don't(1) agree(2) | The(1) well-known(2) proposal(3)
		// makes(1) everyone(3, EH1 V R IY0 W AH2 N) happy(2): 9 words, 16
		// syllables, 2 sentences.
		// 0.39*4.5 + 11.8*16/9 - 15.59 = 1.755 + 20.9778 - 15.59 = 7.1428
		{"apostrophes and hyphens stay inside words", "We don't agree! The well-known proposal makes everyone happy.", readability.Stats{Words: 9, Sentences: 2, Syllables: 16, FKGrade: 7.1428}},
		// Science(2, S AY1 AH0 N S) shows(1) bias(2, B AY1 AH0 S) in(1)
		// various(3, V EH1 R IY0 AH0 S) frameworks(2, F R EY1 M W ER2 K S):
		// 6 words, 11 syllables (the heuristic says 1+1+1+1+2+3 = 9).
		// 0.39*6 + 11.8*11/6 - 15.59 = 2.34 + 21.6333 - 15.59 = 8.3833
		{"hiatus and compounds", "Science shows bias in various frameworks.", readability.Stats{Words: 6, Sentences: 1, Syllables: 11, FKGrade: 8.3833}},
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

// On a passage, the grade is the formula over the counts: words by
// prose.Words, sentences by the splitter, syllables by the dictionary
// word by word.
func TestGradeOfAPassageIsTheFormulaOverTheCounts(t *testing.T) {
	m, s, d := newMeter(t)
	const passage = `The committee's well-known framework was designed for various
stakeholders. However, Dr. Okafor argued that it ignored scientific evidence
about bias, e.g. the 2019 survey. "We can't accept a statement this vague,"
she said; the group's members agreed to revisit the proposal next week.`
	got := m.Measure(passage)
	words := prose.Words(passage)
	syll := 0
	for _, w := range words {
		syll += d.Syllables(w)
	}
	sentences := len(s.Sentences(passage))
	if got.Words != len(words) || got.Syllables != syll || got.Sentences != sentences || sentences != 3 {
		t.Fatalf("counts %+v, want %d words, %d syllables, 3 sentences (splitter: %d)", got, len(words), syll, sentences)
	}
	want := 0.39*float64(len(words))/float64(sentences) + 11.8*float64(syll)/float64(len(words)) - 15.59
	if math.Abs(got.FKGrade-want) > 5e-5 {
		t.Fatalf("grade %v, want %v (the formula over the counts)", got.FKGrade, want)
	}
}

// Without a dictionary the meter counts by vowel groups alone and says so.
func TestVowelGroupMeterIsTheEarlierCount(t *testing.T) {
	_, s, d := newMeter(t)
	old := readability.New(s, nil)
	if old.Model() != readability.ModelVowelGroup || readability.New(s, d).Model() != readability.Model {
		t.Fatalf("models %q, %q", old.Model(), readability.New(s, d).Model())
	}
	if st := old.Measure("Science shows bias in various frameworks."); st.Syllables != 9 {
		t.Fatalf("vowel groups: %+v, want 9 syllables", st)
	}
}

func TestGradeFormula(t *testing.T) {
	// 100 words, 5 sentences, 150 syllables: 0.39*20 + 11.8*1.5 - 15.59 = 9.91
	if g := readability.Grade(100, 5, 150); g != 9.91 {
		t.Fatalf("Grade = %v, want 9.91", g)
	}
}
