// Package readability counts words, sentences and syllables of a text and
// computes its Flesch-Kincaid grade (docs/protocol.md#flesch-kincaid-grade;
// syllables: docs/protocol.md#syllables):
//
//	grade = 0.39 * words/sentences + 11.8 * syllables/words - 15.59
//
// The counts are reported beside the grade so anyone can recompute it.
package readability

import (
	"math"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
)

// Instrument is the name annotations of this package carry.
const Instrument = "readability"

// Models name the methods: prose's word and sentence rules with the CMU
// Pronouncing Dictionary's syllables (the vowel-group heuristic for words
// it lacks), the default, or with the heuristic alone, as the project
// counted before. Stored annotations carry the name, so the two never mix.
const (
	Model           = "flesch-kincaid/cmudict"
	ModelVowelGroup = "flesch-kincaid/vowel-groups"
)

// Stats are the counts and grade of one text.
type Stats struct {
	Words     int     `json:"words"`
	Sentences int     `json:"sentences"`
	Syllables int     `json:"syllables"`
	FKGrade   float64 `json:"fk_grade"`
}

// Meter measures texts. It is safe for concurrent use.
type Meter struct {
	split *prose.Splitter
	dict  *prose.Dictionary
}

// New returns a Meter that splits sentences with s and counts syllables
// with d (prose.LoadDictionary); a nil d counts them by the vowel-group
// heuristic alone.
func New(s *prose.Splitter, d *prose.Dictionary) *Meter { return &Meter{split: s, dict: d} }

// Model names the meter's method: Model, or ModelVowelGroup without a
// dictionary.
func (m *Meter) Model() string {
	if m.dict == nil {
		return ModelVowelGroup
	}
	return Model
}

// Version is the version of the syllable dictionary (prose.Dictionary.Version).
func (m *Meter) Version() string { return m.dict.Version() }

// Measure counts text. A text with no words has zero counts and grade.
func (m *Meter) Measure(text string) Stats {
	words := prose.Words(text)
	if len(words) == 0 {
		return Stats{}
	}
	st := Stats{Words: len(words), Sentences: max(len(m.split.Sentences(text)), 1)}
	for _, w := range words {
		st.Syllables += m.dict.Syllables(w)
	}
	st.FKGrade = Grade(st.Words, st.Sentences, st.Syllables)
	return st
}

// Grade is the Flesch-Kincaid grade of the counts, rounded to 4 decimals;
// zero when there are no words or sentences.
func Grade(words, sentences, syllables int) float64 {
	if words == 0 || sentences == 0 {
		return 0
	}
	g := 0.39*float64(words)/float64(sentences) + 11.8*float64(syllables)/float64(words) - 15.59
	return math.Round(g*1e4) / 1e4
}
