// Package label asks language models to label text, robustly: every
// model-backed instrument (stance, dialogue acts, LLM sentiment) states a
// Question and hands it to a Labeler, which is either
//
//   - a Sampler: one model asked k times; the majority wins; a tie is asked
//     again with only the tied labels (docs/protocol.md#repeated-sampling); or
//   - a Negotiator: two or three models negotiate as generator and
//     discriminator (docs/protocol.md#negotiation).
//
// Both keep every sample and turn in the Verdict, for the annotation.
// Both talk to models only through agent.LLM.
package label

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// Question is what to label.
type Question struct {
	// Name names the question's answer schema, e.g. "stance_signal".
	Name string
	// Instruction says what to judge, for the system prompt.
	Instruction string
	// Text is what to label, with any context the instruction refers to.
	Text string
	// Labels are the allowed answers, in the order used to break a tie
	// that re-asking did not resolve.
	Labels []string
	// Multi allows several labels in one answer.
	Multi bool
	// Fallback is the answer of a multi-label question when no label wins
	// a majority (e.g. "Others"); it must be one of Labels or empty.
	Fallback string
	// Demos are labelled examples shown before the text.
	Demos []Demo
}

// Demo is a labelled example. Reasoning is a reasoning chain for its
// labels and Explanation a second annotator's account of why they are
// right: a file may bring them, and otherwise each model is asked for its
// own (Demonstrations.Plain shows text and labels alone).
type Demo struct {
	Text        string   `json:"text"`
	Labels      []string `json:"labels"`
	Reasoning   string   `json:"reasoning,omitempty"`
	Explanation string   `json:"explanation,omitempty"`
}

// Verdict is a Labeler's answer with everything it drew on.
type Verdict struct {
	// Labels is the answer: one label, or for a multi-label question the
	// labels that won (sorted in Question.Labels order).
	Labels []string `json:"labels"`
	// Rounds holds the votes of the first ask and of each re-ask (Sampler).
	Rounds []Tally `json:"rounds,omitempty"`
	// Samples are every answer drawn (Sampler).
	Samples []Sample `json:"samples,omitempty"`
	// Turns and Outcomes are every negotiation turn and session (Negotiator).
	Turns    []Turn    `json:"turns,omitempty"`
	Outcomes []Outcome `json:"outcomes,omitempty"`
}

// Label returns the single label of the verdict ("" if none).
func (v Verdict) Label() string {
	if len(v.Labels) == 0 {
		return ""
	}
	return v.Labels[0]
}

// Votes returns the votes of the first ask (nil for a negotiation).
func (v Verdict) Votes() Tally {
	if len(v.Rounds) == 0 {
		return nil
	}
	return v.Rounds[0]
}

// Tally counts votes per label.
type Tally map[string]int

// Sample is one answer of a model.
type Sample struct {
	Endpoint string   `json:"endpoint"`
	Round    int      `json:"round"` // 0 for the first ask, 1.. for re-asks
	Labels   []string `json:"labels,omitempty"`
	Raw      string   `json:"raw,omitempty"`
	Error    string   `json:"error,omitempty"` // why the answer did not count
}

// Labeler labels text. Implementations must be safe for concurrent use.
// An error means no verdict: every model failed or gave no usable
// answer; it says which endpoint and why.
type Labeler interface {
	Label(ctx context.Context, q Question) (Verdict, error)
	// Model names the model or models, for annotations.
	Model() string
}

// ErrNoConsensus is returned (wrapped) by a Negotiator of two endpoints
// whose negotiations settled on different answers.
var ErrNoConsensus = errors.New("the endpoints settled on different answers")

// canonical maps an answer to the allowed label it names (matching case
// and surrounding space loosely), and reports whether there is one.
func canonical(labels []string, s string) (string, bool) {
	s = strings.TrimSpace(s)
	i := slices.IndexFunc(labels, func(l string) bool { return strings.EqualFold(l, s) })
	if i < 0 {
		return "", false
	}
	return labels[i], true
}

// ordered returns the distinct labels of set in the order of all.
func ordered(all, set []string) []string {
	var out []string
	for _, l := range all {
		if slices.Contains(set, l) {
			out = append(out, l)
		}
	}
	return out
}

// key identifies an answer, a set of labels, for comparison.
func key(labels []string) string { return strings.Join(labels, "\x1f") }
