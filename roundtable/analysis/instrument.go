package analysis

import (
	"context"
)

// Item is a text to measure, with the previous round's messages for the
// instruments that read context (dialogue acts).
type Item struct {
	Text     string
	Previous []string
}

// Measurement is an instrument's output on one text: Result marshals to
// a JSON object of the instrument's fields (as `roundtable annotate`
// prints them); Samples are the raw draws behind it (model answers,
// negotiation turns), kept in annotations and never printed.
type Measurement struct {
	Result  any
	Samples []any
}

// Instrument measures texts. Implementations must be safe for concurrent
// use. An error means no result (the model was down, no answer was
// usable) and says why; the Measurement may still hold the samples drawn.
type Instrument interface {
	// Name is the instrument's name in annotations ("readability", ...).
	Name() string
	// Model names the model, endpoints or lexicon behind the results.
	Model() string
	Measure(ctx context.Context, it Item) (Measurement, error)
}
