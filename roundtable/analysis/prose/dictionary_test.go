package prose_test

import (
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose/internal/cmusource"
)

var loadDict = sync.OnceValues(prose.LoadDictionary)

func dictionary(t testing.TB) *prose.Dictionary {
	t.Helper()
	d, err := loadDict()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// The embedded counts equal the source's for every word of the CMU
// Pronouncing Dictionary: the npm tarball kept in testdata (checked
// against the registry's SHA-512), each word's first pronunciation, its
// vowel phonemes counted. A word that is a word by Words' rule counts the
// same through Syllables, capitalised or not.
func TestDictionaryEqualsTheSourceForEveryWord(t *testing.T) {
	tgz, err := os.ReadFile("testdata/cmu-pronouncing-dictionary-3.0.0.tgz")
	if err != nil {
		t.Fatal(err)
	}
	prons, err := cmusource.Read(tgz)
	if err != nil {
		t.Fatal(err)
	}
	d := dictionary(t)
	if d.Len() != len(prons) || d.Len() != 126046 {
		t.Fatalf("the dictionary holds %d words, the source %d; want 126046", d.Len(), len(prons))
	}
	asWords := 0
	for word, pron := range prons {
		want := cmusource.Syllables(pron)
		if got, ok := d.Lookup(word); !ok || got != want {
			t.Errorf("Lookup(%q) = %d, %v; the source says %d (%s)", word, got, ok, want, pron)
			continue
		}
		if ws := prose.Words(word); len(ws) != 1 || ws[0] != word {
			continue // "a.", "'bout": never a word of ours
		}
		asWords++
		title := strings.ToUpper(word[:1]) + word[1:]
		if got, gotTitle := d.Syllables(word), d.Syllables(title); got != want || gotTitle != want {
			t.Errorf("Syllables(%q) = %d, Syllables(%q) = %d; the source says %d (%s)", word, got, title, gotTitle, want, pron)
		}
	}
	if asWords < 120000 {
		t.Errorf("only %d entries are words by Words' rule", asWords)
	}
}

// The first pronunciation is the one keyed by the word ("a" is AH0, not
// "a(2)" EY1), and a phoneme counts when it carries a stress digit.
func TestSourceCountsVowelPhonemes(t *testing.T) {
	for pron, want := range map[string]int{"B AY1 AH0 S": 2, "HH M": 0, "V EH1 R IY0 AH0 S": 3, "F R EY1 M W ER2 K": 2} {
		if got := cmusource.Syllables(pron); got != want {
			t.Errorf("Syllables(%q) = %d, want %d", pron, got, want)
		}
	}
	if _, err := cmusource.Read([]byte("not the tarball")); err == nil {
		t.Error("Read of other bytes: no error")
	}
}

// Words the vowel-group heuristic gets wrong (hiatus, a silent "e" inside
// a compound) come out as the dictionary says; the lookup rules cover
// possessives, hyphenated words and typographic apostrophes.
func TestSyllablesByDictionary(t *testing.T) {
	d := dictionary(t)
	for _, tt := range []struct {
		word      string
		want, old int // old: the heuristic alone
	}{
		{"bias", 2, 1}, {"science", 2, 1}, {"various", 3, 2}, {"framework", 2, 3}, {"statement", 2, 3},
		{"it's", 1, 1},               // in the dictionary
		{"It’s", 1, 1},               // typographic apostrophe, capital
		{"group's", 1, 1},            // in the dictionary
		{"well-known", 2, 2},         // in the dictionary whole
		{"deliberation-based", 6, 6}, // not whole: deliberation (5) + based (1)
		{"framework's", 2, 3},        // not whole: framework (2), no sibilant
		{"analysis's", 5, 4},         // not whole: analysis (4) + 1 after the s
		{"box's", 2, 1},              // not whole: box (1) + 1 after the x
		{"chatbot", 2, 2},            // not in the dictionary: the heuristic
		{"hmm", 0, 1},                // the dictionary has no vowel in it
		{"42", 1, 1},                 // a number: one syllable
	} {
		if got := d.Syllables(tt.word); got != tt.want {
			t.Errorf("Syllables(%q) = %d, want %d", tt.word, got, tt.want)
		}
		var none *prose.Dictionary
		if got := none.Syllables(tt.word); got != tt.old {
			t.Errorf("the heuristic alone: Syllables(%q) = %d, want %d", tt.word, got, tt.old)
		}
	}
}

func BenchmarkLoadDictionary(b *testing.B) {
	for b.Loop() {
		if _, err := prose.LoadDictionary(); err != nil {
			b.Fatal(err)
		}
	}
}
