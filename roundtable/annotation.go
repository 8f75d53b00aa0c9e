package roundtable

import (
	"context"
	"encoding/json"
	"time"
)

// Annotation is an instrument's output on one message of a table: what
// measured it (instrument and model or lexicon), every sample it drew, and
// the result. Annotations are kept beside a table's log, never in it: the
// table replays without them, they are never shown to agents, and they can
// be recomputed with another model.
type Annotation struct {
	Table string `json:"table"`
	// Seq is the sequence number of the annotated event (a MessagePosted).
	Seq uint64 `json:"seq"`
	// Instrument names what measured: "readability", "sentiment",
	// "stance", "dialogue-acts", "embedding".
	Instrument string `json:"instrument"`
	// Model names the model, the negotiating endpoints or the lexicon
	// ("vader", "cue-phrases", "hashed-tfidf") that produced the result.
	Model string `json:"model"`
	// Samples are the instrument's raw draws (each model answer, each
	// negotiation turn), in the instrument's own JSON shape.
	Samples []json.RawMessage `json:"samples,omitempty"`
	// Result is the instrument's output in its own JSON shape; empty when
	// Missing is set.
	Result json.RawMessage `json:"result,omitempty"`
	// Missing, when set, says why there is no result (the model was down,
	// the answer was unusable).
	Missing string    `json:"missing,omitempty"`
	Time    time.Time `json:"time"`
}

// AnnotationKey identifies an annotation: one per table, message,
// instrument and model.
type AnnotationKey struct {
	Table      string
	Seq        uint64
	Instrument string
	Model      string
}

// Key returns a's key.
func (a Annotation) Key() AnnotationKey {
	return AnnotationKey{Table: a.Table, Seq: a.Seq, Instrument: a.Instrument, Model: a.Model}
}

// AnnotationStore keeps annotations beside table logs.
//
// Implementations must be safe for concurrent use. PutAnnotation replaces
// any annotation with the same key; it returns an *Error with code
// Invalid when the key has an empty table, instrument or model, or a zero
// Seq. Annotation reports ok=false, with no error, when there is none
// under the key. Annotations returns a table's annotations ordered by Seq,
// then instrument, then model; none is an empty result, not an error.
type AnnotationStore interface {
	PutAnnotation(ctx context.Context, a Annotation) error
	Annotation(ctx context.Context, key AnnotationKey) (a Annotation, ok bool, err error)
	Annotations(ctx context.Context, table string) ([]Annotation, error)
}

// Valid reports an *Error with code Invalid when k cannot key an annotation.
func (k AnnotationKey) Valid() error {
	if k.Table == "" || k.Instrument == "" || k.Model == "" || k.Seq == 0 {
		return Errorf(Invalid, "an annotation needs a table, a message seq, an instrument and a model (got %q, %d, %q, %q)",
			k.Table, k.Seq, k.Instrument, k.Model)
	}
	return nil
}
