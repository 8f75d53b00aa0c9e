package sentiment

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/prose"
)

// Argument is one scored argument of a statement.
type Argument struct {
	Text  string  `json:"text"`
	Score float64 `json:"score"`
	// Verdict is the model's verdict with its samples (nil for VADER).
	Verdict *label.Verdict `json:"verdict,omitempty"`
}

// Opinion is a statement's arguments and its opinion sentiment S_O, the
// mean of their scores (0 for a statement with no arguments).
type Opinion struct {
	Arguments []Argument `json:"arguments"`
	Score     float64    `json:"score"`
}

// Arguments splits text into its arguments (docs/protocol.md#sentiment): its sentences, each split
// again at its contrastive conjunctions (see contrastPieces), the
// conjunctions dropped, and the pieces without a word left out.
func Arguments(s *prose.Splitter, text string) []string {
	var out []string
	for _, sent := range s.Sentences(text) {
		for _, piece := range contrastPieces(sent) {
			if len(prose.Words(piece)) > 0 {
				out = append(out, piece)
			}
		}
	}
	return out
}

// Analyzer scores statements by their arguments. It is safe for
// concurrent use if its Scorer is.
type Analyzer struct {
	Split  *prose.Splitter
	Scorer Scorer
}

// Opinion splits text into arguments and scores each.
func (a Analyzer) Opinion(ctx context.Context, text string) (Opinion, error) {
	var op Opinion
	sum := 0.0
	for _, arg := range Arguments(a.Split, text) {
		s, err := a.Scorer.Score(ctx, arg)
		if err != nil {
			return Opinion{}, fmt.Errorf("score argument %q: %w", arg, err)
		}
		op.Arguments = append(op.Arguments, Argument{Text: arg, Score: s.Score, Verdict: s.Verdict})
		sum += s.Score
	}
	if n := len(op.Arguments); n > 0 {
		op.Score = sum / float64(n)
	}
	return op, nil
}
