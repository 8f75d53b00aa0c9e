package sentiment

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/jonreiter/govader"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// Scorer scores the sentiment of one argument in [-1, 1]. Implementations
// must be safe for concurrent use.
type Scorer interface {
	Score(ctx context.Context, text string) (Scored, error)
	// Model names the lexicon or model, for annotations.
	Model() string
}

// Polarity is VADER's reading of a whole text: the compound score in
// [-1, 1] and the shares of positive, neutral and negative words.
type Polarity struct {
	Compound float64 `json:"compound"`
	Pos      float64 `json:"pos"`
	Neu      float64 `json:"neu"`
	Neg      float64 `json:"neg"`
}

// Vader is the offline Scorer: VADER's compound score. It is safe for
// concurrent use; build one with NewVader and share it (building loads
// the lexicon).
type Vader struct {
	a *govader.SentimentIntensityAnalyzer
}

var _ Scorer = (*Vader)(nil)

// NewVader loads the VADER lexicon.
func NewVader() *Vader { return &Vader{a: govader.NewSentimentIntensityAnalyzer()} }

// Polarity returns VADER's scores of text, rounded as the reference
// implementation rounds them: the compound score to 4 decimals, the shares
// to 3.
func (v *Vader) Polarity(text string) Polarity {
	s := v.a.PolarityScores(text)
	return Polarity{Compound: round(s.Compound, 1e4), Pos: round(s.Positive, 1e3), Neu: round(s.Neutral, 1e3), Neg: round(s.Negative, 1e3)}
}

func round(x, scale float64) float64 { return math.Round(x*scale) / scale }

// Scored is a Scorer's answer: the score and, from a model, the verdict
// behind it.
type Scored struct {
	Score   float64
	Verdict *label.Verdict
}

// Score implements Scorer with VADER's compound score.
func (v *Vader) Score(_ context.Context, text string) (Scored, error) {
	return Scored{Score: round(v.a.PolarityScores(text).Compound, 1e4)}, nil
}

// Model implements Scorer.
func (v *Vader) Model() string { return "vader" }

// Version is the version of the VADER lexicon (label.DataVersion over its
// entries in word order).
func (v *Vader) Version() string {
	words := slices.Sorted(maps.Keys(v.a.Lexicon))
	lines := make([]string, len(words))
	for i, w := range words {
		lines[i] = fmt.Sprintf("%s\t%g", w, v.a.Lexicon[w])
	}
	return label.DataVersion(lines...)
}
