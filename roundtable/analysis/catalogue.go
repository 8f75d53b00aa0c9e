package analysis

import (
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/readability"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
)

// Spec names an instrument and how it measures, as `roundtable annotate`
// takes them (--instrument, --method, --statement, --complement).
type Spec struct {
	Instrument string // readability, dialogue-acts, embedding, sentiment or stance
	Method     string // "" is the instrument's default
	// Statement and Complement are what a stance is about.
	Statement, Complement string
	// Labeler and Embedder give a model-backed method its model; they are
	// asked only when the method needs one.
	Labeler  func() (label.Labeler, error)
	Embedder func() (embed.Embedder, error)
}

// New makes the instrument s names. An error of code roundtable.Invalid
// names the option at fault, as annotate's flag.
func New(s Spec) (Instrument, error) {
	switch s.Instrument {
	case "readability":
		return readabilityOf(s)
	case "sentiment":
		return sentimentOf(s)
	case "dialogue-acts":
		switch s.Method {
		case "", "cue-phrases":
			return Acts(acts.CueTagger{}), nil
		case "llm":
			lb, err := s.Labeler()
			return Acts(acts.Model{Labeler: lb}), err
		}
		return nil, badMethod(s, "cue-phrases or llm")
	case "embedding":
		switch s.Method {
		case "", "hashed-tfidf":
			return Embedding(embed.HashedTFIDF{}), nil
		case "llm":
			e, err := s.Embedder()
			return Embedding(e), err
		}
		return nil, badMethod(s, "hashed-tfidf or llm")
	case "stance":
		return stanceOf(s)
	case "":
		return nil, roundtable.Errorf(roundtable.Invalid, "--instrument is required: readability, dialogue-acts, embedding, sentiment or stance")
	}
	return nil, roundtable.Errorf(roundtable.Invalid, "--instrument: %q is not readability, dialogue-acts, embedding, sentiment or stance", s.Instrument)
}

// readabilityOf counts syllables with the CMU Pronouncing Dictionary
// (method "" or cmudict) or the vowel-group heuristic alone (vowel-groups,
// the project's earlier count).
func readabilityOf(s Spec) (Instrument, error) {
	var dict *prose.Dictionary
	switch s.Method {
	case "", "cmudict":
		var err error
		if dict, err = prose.LoadDictionary(); err != nil {
			return nil, err
		}
	case "vowel-groups":
	default:
		return nil, badMethod(s, "cmudict or vowel-groups")
	}
	sp, err := prose.NewSplitter()
	return Readability(readability.New(sp, dict)), err
}

func sentimentOf(s Spec) (Instrument, error) {
	sp, err := prose.NewSplitter()
	if err != nil {
		return nil, err
	}
	v := sentiment.NewVader()
	switch s.Method {
	case "", "vader":
		return Sentiment(v, sentiment.Analyzer{Split: sp, Scorer: v}), nil
	case "llm":
		lb, err := s.Labeler()
		return Sentiment(v, sentiment.Analyzer{Split: sp, Scorer: sentiment.LLM{Labeler: lb}}), err
	}
	return nil, badMethod(s, "vader or llm")
}

func stanceOf(s Spec) (Instrument, error) {
	switch s.Method {
	case "lexicon":
		return Stance(stance.Lexicon{}), nil
	case "", "llm":
	default:
		return nil, badMethod(s, "llm or lexicon")
	}
	if strings.TrimSpace(s.Statement) == "" {
		return nil, roundtable.Errorf(roundtable.Invalid, "--instrument stance needs --statement TEXT, the statement under audit")
	}
	lb, err := s.Labeler()
	return Stance(stance.Classifier{Labeler: lb, Statement: s.Statement, Complement: s.Complement}), err
}

// badMethod refuses a method the instrument has not, naming those it has.
func badMethod(s Spec, want string) error {
	return roundtable.Errorf(roundtable.Invalid, "--method: %q is not %s (for %s)", s.Method, want, s.Instrument)
}
