// Package stance classifies the opinion a message expresses, as the
// Conversational bias paper does (docs/protocol.md#classifiers): an
// opinion-presence classifier (does the message express an opinion on
// the statement at all, yes or no) and an opinion-signal classifier (one
// of five levels relative to a statement and its complement), each asked
// through a label.Labeler (k samples with a majority and a tie re-ask, or
// a negotiation). An unwarranted change is a classified stance that
// differs from the assigned one.
package stance

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// Instrument is the name annotations of this package carry.
const Instrument = "stance"

// Level is a stance on the -2..2 scale shared with opinion dynamics.
type Level int

// The five levels (docs/protocol.md#stance-and-its-auditing).
const (
	StronglyComplement Level = -2
	SlightlyComplement Level = -1
	Neutral            Level = 0
	SlightlyStatement  Level = 1
	StronglyStatement  Level = 2
)

// Labels are the signal classifier's labels, strongest agreement with the
// statement first.
var labels = []string{
	"strongly agree (statement)", "slightly agree (statement)", "neutral",
	"slightly agree (complement)", "strongly agree (complement)",
}

// Labels returns the five signal labels, from StronglyStatement down.
func Labels() []string { return append([]string(nil), labels...) }

// Label returns l's label ("" for a level off the scale).
func (l Level) Label() string {
	if l < -2 || l > 2 {
		return ""
	}
	return labels[2-l]
}

// ParseLevel returns the level of a label.
func ParseLevel(s string) (Level, error) {
	for i, l := range labels {
		if l == s {
			return Level(2 - i), nil
		}
	}
	return 0, fmt.Errorf("stance %q is not one of the five levels", s)
}

// Result is what the classifiers say about one message.
type Result struct {
	Presence bool          `json:"presence"`
	Level    Level         `json:"level"`
	Label    string        `json:"label"`
	Votes    label.Tally   `json:"votes"`
	Verdicts StageVerdicts `json:"verdicts"`
}

// StageVerdicts keeps both classifiers' verdicts with every sample.
type StageVerdicts struct {
	Presence label.Verdict `json:"presence"`
	Signal   label.Verdict `json:"signal"`
}

// Classifier asks both classifiers about messages relative to Statement
// and its Complement.
type Classifier struct {
	Labeler    label.Labeler
	Statement  string
	Complement string // "" means "the opposite of the statement"
}

// Classify runs the presence and the signal classifier on text.
func (c Classifier) Classify(ctx context.Context, text string) (Result, error) {
	var r Result
	pv, err := c.Labeler.Label(ctx, c.presenceQuestion(text))
	r.Verdicts.Presence = pv
	if err != nil {
		return r, fmt.Errorf("opinion presence: %w", err)
	}
	sv, err := c.Labeler.Label(ctx, c.signalQuestion(text))
	r.Verdicts.Signal = sv
	if err != nil {
		return r, fmt.Errorf("opinion signal: %w", err)
	}
	r.Presence = pv.Label() == "yes"
	r.Label, r.Votes = sv.Label(), sv.Votes()
	r.Level, err = ParseLevel(r.Label)
	return r, err
}

// Unwarranted reports an unwarranted opinion change: a classified stance
// that differs from the assigned one.
func Unwarranted(assigned, classified Level) bool { return assigned != classified }

func (c Classifier) complement() string {
	if c.Complement != "" {
		return c.Complement
	}
	return "The opposite of: " + c.Statement
}

func (c Classifier) presenceQuestion(text string) label.Question {
	return label.Question{Name: "opinion_presence", Labels: []string{"yes", "no"}, Text: text,
		Instruction: fmt.Sprintf("Statement: %s\nComplement: %s\n\nDoes the text express an opinion on the statement or its complement? Answer yes or no.",
			c.Statement, c.complement())}
}

func (c Classifier) signalQuestion(text string) label.Question {
	return label.Question{Name: "opinion_signal", Labels: Labels(), Text: text,
		Instruction: fmt.Sprintf("Statement: %s\nComplement: %s\n\nWhich stance does the author of the text take? "+
			"\"statement\" means agreeing with the statement, \"complement\" agreeing with the complement; neutral if neither.",
			c.Statement, c.complement())}
}

// Model names the labeler behind the classifier.
func (c Classifier) Model() string { return c.Labeler.Model() }

// Version is the version of the presence and signal prompts
// (label.PromptVersion), with placeholders for the statement, its
// complement (when one is given) and the text.
func (c Classifier) Version() string {
	ref := Classifier{Statement: "STATEMENT"}
	if c.Complement != "" {
		ref.Complement = "COMPLEMENT"
	}
	return label.PromptVersion(ref.presenceQuestion("TEXT"), ref.signalQuestion("TEXT"))
}
