package analysis

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Cache keeps what instruments say about a table's messages as
// annotations in Store, beside the table's log: a message that has a
// stored result under the instrument and model is not measured again, so
// re-running an analysis asks no model twice. A failed measurement is
// stored with Missing set to the reason, and measured again next time.
type Cache struct {
	Store roundtable.AnnotationStore
	Clock roundtable.Clock // nil means the system clock
}

// Annotate returns the stored annotation of the message at seq of table,
// or measures it with in and stores the outcome. A measurement that
// fails is stored as missing and returned with no error: the reason is in
// Annotation.Missing. Only a failure to read or write the store, or a
// done ctx, is an error.
func (c Cache) Annotate(ctx context.Context, table string, seq uint64, in Instrument, it Item) (roundtable.Annotation, error) {
	key := roundtable.AnnotationKey{Table: table, Seq: seq, Instrument: in.Name(), Model: in.Model()}
	if a, ok, err := c.Store.Annotation(ctx, key); err != nil {
		return a, fmt.Errorf("annotate: %w", err)
	} else if ok && a.Missing == "" {
		return a, nil
	}
	m, err := in.Measure(ctx, it)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return roundtable.Annotation{}, fmt.Errorf("annotate %s/%d with %s: %w", table, seq, in.Name(), ctxErr)
	}
	a, encErr := c.annotation(key, m, err)
	if encErr != nil {
		return a, encErr
	}
	if err := c.Store.PutAnnotation(ctx, a); err != nil {
		return a, fmt.Errorf("annotate: %w", err)
	}
	return a, nil
}

func (c Cache) annotation(key roundtable.AnnotationKey, m Measurement, failed error) (roundtable.Annotation, error) {
	clock := c.Clock
	if clock == nil {
		clock = roundtable.SystemClock{}
	}
	a := roundtable.Annotation{Table: key.Table, Seq: key.Seq, Instrument: key.Instrument, Model: key.Model, Time: clock.Now()}
	for _, s := range m.Samples {
		b, err := json.Marshal(s)
		if err != nil {
			return a, fmt.Errorf("encode a sample of %s: %w", key.Instrument, err)
		}
		a.Samples = append(a.Samples, b)
	}
	if failed != nil {
		a.Missing = failed.Error()
		return a, nil
	}
	b, err := json.Marshal(m.Result)
	if err != nil {
		return a, fmt.Errorf("encode the result of %s: %w", key.Instrument, err)
	}
	a.Result = b
	return a, nil
}
