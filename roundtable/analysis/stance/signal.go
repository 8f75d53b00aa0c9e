package stance

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// Signal is the opinion presence and opinion signal agents a chatroom
// agent's persona follows (agent.OpinionSignal): the model classifiers
// asked through Labeler about each message and the table's statement,
// or, with no Labeler, the offline Lexicon, which reads the same level
// from the same words every time.
type Signal struct {
	Labeler label.Labeler
}

// Signal classifies text relative to statement and complement: whether
// it expresses an opinion, and at which level.
func (s Signal) Signal(ctx context.Context, statement, complement, text string) (level int, present bool, err error) {
	if s.Labeler == nil {
		r, _ := Lexicon{}.Classify(ctx, text)
		return int(r.Level), r.Presence, nil
	}
	// The presence agent first; the signal agent only when it finds an
	// opinion, as the paper asks them (section 3.2).
	c := Classifier{Labeler: s.Labeler, Statement: statement, Complement: complement}
	pv, err := s.Labeler.Label(ctx, c.presenceQuestion(text))
	if err != nil {
		return 0, false, fmt.Errorf("opinion presence: %w", err)
	}
	if pv.Label() != "yes" {
		return 0, false, nil
	}
	sv, err := s.Labeler.Label(ctx, c.signalQuestion(text))
	if err != nil {
		return 0, false, fmt.Errorf("opinion signal: %w", err)
	}
	l, err := ParseLevel(sv.Label())
	if err != nil {
		return 0, false, fmt.Errorf("opinion signal: %w", err)
	}
	return int(l), true, nil
}

// Model names the classifier: the labeler's model, or LexiconModel.
func (s Signal) Model() string {
	if s.Labeler == nil {
		return LexiconModel
	}
	return s.Labeler.Model()
}

// Version is the version of what reads the signal: the model
// classifiers' prompts, or the lexicon's cues.
func (s Signal) Version() string {
	if s.Labeler == nil {
		return Lexicon{}.Version()
	}
	return Classifier{}.Version()
}
