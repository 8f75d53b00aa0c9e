// Package prose splits English text into sentences and words and counts
// syllables, the way every instrument of package analysis counts them
// (docs/protocol.md#words-and-sentences).
//
// Sentences come from github.com/neurosnap/sentences, a Punkt sentence
// tokenizer trained on English, so that abbreviations such as "e.g." and
// "Dr." do not end a sentence. Words are maximal runs of letters or digits
// with inner apostrophes or hyphens ("don't", "well-known"); so "e.g." is
// two words, "e" and "g". Syllables come from the CMU Pronouncing
// Dictionary, embedded (Dictionary), and a vowel-group heuristic for the
// words it lacks (VowelGroups).
package prose

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/neurosnap/sentences"
	"github.com/neurosnap/sentences/english"
)

// Splitter splits text into sentences. Build one with NewSplitter and
// share it: building loads the English training data. It is safe for
// concurrent use.
type Splitter struct {
	tok *sentences.DefaultSentenceTokenizer
}

// NewSplitter loads the English sentence tokenizer.
func NewSplitter() (*Splitter, error) {
	tok, err := english.NewSentenceTokenizer(nil)
	if err != nil {
		return nil, fmt.Errorf("load the English sentence tokenizer: %w", err)
	}
	return &Splitter{tok: tok}, nil
}

// Sentences returns the trimmed, non-empty sentences of text.
func (s *Splitter) Sentences(text string) []string {
	var out []string
	for _, sent := range s.tok.Tokenize(text) {
		if t := strings.TrimSpace(sent.Text); t != "" && len(Words(t)) > 0 {
			out = append(out, t)
		}
	}
	return out
}

var wordRE = regexp.MustCompile(`[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*`)

// Words returns the words of text: maximal runs of letters or digits with
// inner apostrophes or hyphens.
func Words(text string) []string { return wordRE.FindAllString(text, -1) }
