package prose_test

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
)

// FuzzProse: any text splits without panicking; every sentence is a piece
// of the text; every word has at least one syllable by the heuristic and
// by the dictionary between none ("hmm") and three a letter.
func FuzzProse(f *testing.F) {
	for _, s := range []string{"", "Dr. Smith arrived. He left!", "e.g. this... and that?", "“Quoted.” Next", "42 well-known don't", "\x00\xff."} {
		f.Add(s)
	}
	sp, err := prose.NewSplitter()
	if err != nil {
		f.Fatal(err)
	}
	dict := dictionary(f)
	f.Fuzz(func(t *testing.T, text string) {
		for _, s := range sp.Sentences(text) {
			if !strings.Contains(text, s) {
				t.Fatalf("sentence %q is not in the text %q", s, text)
			}
		}
		for _, w := range prose.Words(text) {
			if prose.VowelGroups(w) < 1 {
				t.Fatalf("word %q has no syllable", w)
			}
			if n := dict.Syllables(w); n < 0 || n > 3*len(w) {
				t.Fatalf("word %q has %d syllables", w, n)
			}
		}
	})
}
