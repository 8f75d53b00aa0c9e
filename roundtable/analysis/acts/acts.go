// Package acts labels the dialogue acts of a message (docs/protocol.md#dialogue-acts): multi-label, from the conversation acts Inform, Request, Confirm,
// Summarize, Evaluate and the collaboration acts Propose, Compromise,
// Defend, Accept, Decline, else Others. Model labels the acts through a
// label.Labeler (k samples and a per-label majority, or a negotiation),
// given the previous round; CueTagger labels them offline from cue
// phrases, and says so ("cue-phrases") in every annotation.
package acts

import (
	"context"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

// Instrument is the name annotations of this package carry.
const Instrument = "dialogue-acts"

// The dialogue acts.
const (
	Inform     = "Inform"
	Request    = "Request"
	Confirm    = "Confirm"
	Summarize  = "Summarize"
	Evaluate   = "Evaluate"
	Propose    = "Propose"
	Compromise = "Compromise"
	Defend     = "Defend"
	Accept     = "Accept"
	Decline    = "Decline"
	Others     = "Others"
)

// All lists the acts in the order of docs/protocol.md#dialogue-acts.
func All() []string {
	return []string{Inform, Request, Confirm, Summarize, Evaluate, Propose, Compromise, Defend, Accept, Decline, Others}
}

// Tagger labels the acts of a message. previous is the text of the
// previous round's messages, for context (nil for the first round).
type Tagger interface {
	Tag(ctx context.Context, text string, previous []string) (Result, error)
	Model() string
}

// Result is a message's acts with the verdict behind them.
type Result struct {
	Acts    []string       `json:"acts"`
	Verdict *label.Verdict `json:"verdict,omitempty"`
}

// Model tags with a language model through a Labeler.
type Model struct {
	Labeler label.Labeler
}

var _ Tagger = Model{}

// Model implements Tagger.
func (m Model) Model() string { return m.Labeler.Model() }

// Version is the version of the dialogue-act prompt (label.PromptVersion).
func (Model) Version() string { return label.PromptVersion(question("TEXT", []string{"PREVIOUS"})) }

// Tag implements Tagger.
func (m Model) Tag(ctx context.Context, text string, previous []string) (Result, error) {
	v, err := m.Labeler.Label(ctx, question(text, previous))
	if err != nil {
		return Result{Verdict: &v}, fmt.Errorf("dialogue acts: %w", err)
	}
	return Result{Acts: v.Labels, Verdict: &v}, nil
}

func question(text string, previous []string) label.Question {
	var b strings.Builder
	if len(previous) > 0 {
		b.WriteString("Messages of the previous round:\n")
		for _, p := range previous {
			fmt.Fprintf(&b, "- %s\n", p)
		}
		b.WriteString("\nMessage to label:\n")
	}
	b.WriteString(text)
	return label.Question{Name: "dialogue_acts", Labels: All(), Multi: true, Fallback: Others, Text: b.String(),
		Instruction: "Label the dialogue acts of the message in a group deliberation. Conversation acts: " +
			"Inform (gives information), Request (asks for something), Confirm (confirms what was said), " +
			"Summarize (sums up the discussion), Evaluate (judges an option). Collaboration acts: Propose (puts forward a solution), " +
			"Compromise (offers a middle ground), Defend (argues for an earlier position), Accept (agrees to a proposal), " +
			"Decline (rejects a proposal). Others if none applies."}
}
