package analysis

import (
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
)

// Versioned is an instrument, or a part of one, that says which version
// of its data (a lexicon, a dictionary) or its prompts produced its
// results.
type Versioned interface {
	Version() string
}

// InstrumentVersion says what produced an instrument's results: the
// instrument, its model (or lexicon) and the version of its data or
// prompts ("" when it has none beyond the model).
type InstrumentVersion struct {
	Instrument string `json:"instrument"`
	Model      string `json:"model"`
	Version    string `json:"version,omitempty"`
}

// VersionOf is what produced in's results.
func VersionOf(in Instrument) InstrumentVersion {
	return InstrumentVersion{Instrument: in.Name(), Model: in.Model(), Version: versionOf(in)}
}

// Markdown says v in a line of index.md.
func (v InstrumentVersion) Markdown() string {
	s := v.Instrument + " `" + v.Model + "`"
	if v.Version != "" {
		s += " version `" + v.Version + "`"
	}
	return s
}

// versionOf is x's version, "" when it has none; the versions of several
// parts are joined with "+".
func versionOf(xs ...any) string {
	var parts []string
	for _, x := range xs {
		if v, ok := x.(Versioned); ok && v.Version() != "" {
			parts = append(parts, v.Version())
		}
	}
	return strings.Join(parts, "+")
}

// Version implements Versioned: the syllable dictionary's.
func (r readabilityInstrument) Version() string { return r.m.Version() }

// Version implements Versioned: VADER's lexicon, and the argument
// scorer's prompt when a model scores them.
func (s sentimentInstrument) Version() string {
	if v, ok := s.a.Scorer.(*sentiment.Vader); ok && v == s.v {
		return s.v.Version()
	}
	return versionOf(s.v, s.a.Scorer)
}

// Version implements Versioned: the classifier's prompts or lexicon.
func (s stanceInstrument) Version() string { return versionOf(s.c) }

// Version implements Versioned: the tagger's prompt or cue phrases.
func (a actsInstrument) Version() string { return versionOf(a.t) }

// Version implements Versioned: the offline embedder's layout; a
// model's embeddings are versioned by the model's name.
func (e embeddingInstrument) Version() string { return versionOf(e.e) }
