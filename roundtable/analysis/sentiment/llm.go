package sentiment

import (
	"context"
	"fmt"
	"math"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// Instrument is the name annotations of this package carry.
const Instrument = "sentiment"

// scale maps the labels a model chooses from to scores in [-1, 1].
var scale = []struct {
	label string
	score float64
}{{"very negative", -1}, {"negative", -0.5}, {"neutral", 0}, {"positive", 0.5}, {"very positive", 1}}

// LLM scores arguments with a language model through a Labeler (k samples
// and a majority, or a negotiation). Decision: the model picks one of five
// levels, very negative (-1), negative (-0.5), neutral (0), positive
// (0.5) and very positive (1), rather than a free number, so that its
// samples can be counted, re-asked on a tie and negotiated like every
// other label.
type LLM struct {
	Labeler label.Labeler
}

var _ Scorer = LLM{}

// Model implements Scorer.
func (l LLM) Model() string { return l.Labeler.Model() }

// Score implements Scorer.
func (l LLM) Score(ctx context.Context, text string) (Scored, error) {
	v, err := l.Labeler.Label(ctx, question(text))
	if err != nil {
		return Scored{Verdict: &v}, fmt.Errorf("sentiment: %w", err)
	}
	for _, s := range scale {
		if s.label == v.Label() {
			return Scored{Score: s.score, Verdict: &v}, nil
		}
	}
	return Scored{Verdict: &v}, fmt.Errorf("sentiment: the verdict %q is not on the scale", v.Label())
}

// LabelOf is the label of the five levels nearest score (the lower of two
// equally near), as a text's S_O reads against a gold label.
func LabelOf(score float64) string {
	best := scale[0]
	for _, s := range scale[1:] {
		if math.Abs(s.score-score) < math.Abs(best.score-score) {
			best = s
		}
	}
	return best.label
}

// question asks a labeler for the sentiment of one argument.
func question(text string) label.Question {
	labels := make([]string, len(scale))
	for i, s := range scale {
		labels[i] = s.label
	}
	return label.Question{Name: "sentiment", Labels: labels, Text: text,
		Instruction: "How positive or negative is the sentiment of this argument?"}
}

// Version is the version of the sentiment prompt (label.PromptVersion).
func (LLM) Version() string { return label.PromptVersion(question("TEXT")) }
