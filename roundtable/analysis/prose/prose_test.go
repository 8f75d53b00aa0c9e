package prose_test

import (
	"fmt"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
)

func TestSentencesKeepAbbreviations(t *testing.T) {
	s, err := prose.NewSplitter()
	if err != nil {
		t.Fatal(err)
	}
	got := s.Sentences("I met Dr. Smith today. We discussed options, e.g. the first one. Fine?")
	want := `["I met Dr. Smith today." "We discussed options, e.g. the first one." "Fine?"]`
	if fmt.Sprintf("%q", got) != want {
		t.Fatalf("got %q\nwant %s", got, want)
	}
}

func TestWords(t *testing.T) {
	got := prose.Words("Don't split well-known words; 42 counts — e.g. too.")
	want := `["Don't" "split" "well-known" "words" "42" "counts" "e" "g" "too"]`
	if fmt.Sprintf("%q", got) != want {
		t.Fatalf("got %q\nwant %s", got, want)
	}
}

func TestVowelGroups(t *testing.T) {
	for word, want := range map[string]int{
		"the": 1, "cat": 1, "make": 1, "table": 2, "jumped": 1, "wanted": 2, "makes": 1,
		"boxes": 2, "goes": 1, "everyone": 3, "proposal": 3, "agree": 2, "happy": 2,
		"be": 1, "free": 1, "42": 1, "deliberation": 5,
	} {
		if got := prose.VowelGroups(word); got != want {
			t.Errorf("VowelGroups(%q) = %d, want %d", word, got, want)
		}
	}
}
