package analysis

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// AnnotateLog annotates every message of a table's log with in, through
// the cache, and returns the annotations in log order. Each message is
// given the texts of the previous round's messages as context. Messages
// are measured one at a time; a model-backed instrument draws its samples
// concurrently.
func (c Cache) AnnotateLog(ctx context.Context, events []roundtable.Event, in Instrument) ([]roundtable.Annotation, error) {
	byRound := map[int][]string{}
	for _, e := range events {
		if m, ok := e.Data.(roundtable.MessagePosted); ok {
			byRound[m.Round] = append(byRound[m.Round], m.Text)
		}
	}
	var out []roundtable.Annotation
	for _, e := range events {
		m, ok := e.Data.(roundtable.MessagePosted)
		if !ok {
			continue
		}
		a, err := c.Annotate(ctx, e.Table, e.Seq, in, Item{Text: m.Text, Previous: byRound[m.Round-1]})
		if err != nil {
			return out, fmt.Errorf("message %d: %w", e.Seq, err)
		}
		out = append(out, a)
	}
	return out, nil
}
