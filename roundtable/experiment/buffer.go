package experiment

import (
	"context"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// annotationBuffer is the annotation store of one table's analysis: it
// reads through to the database and keeps new annotations until flush
// writes them in one transaction, so that annotating a table costs one
// disk sync per instrument rather than one per message. What a crash
// loses is measured again by the next run.
type annotationBuffer struct {
	db      Store
	mu      sync.Mutex
	pending map[roundtable.AnnotationKey]roundtable.Annotation
}

var _ roundtable.AnnotationStore = (*annotationBuffer)(nil)

// PutAnnotation implements roundtable.AnnotationStore; it only buffers.
func (b *annotationBuffer) PutAnnotation(_ context.Context, a roundtable.Annotation) error {
	if err := a.Key().Valid(); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pending == nil {
		b.pending = map[roundtable.AnnotationKey]roundtable.Annotation{}
	}
	b.pending[a.Key()] = a
	return nil
}

// Annotation implements roundtable.AnnotationStore: buffered first.
func (b *annotationBuffer) Annotation(ctx context.Context, k roundtable.AnnotationKey) (roundtable.Annotation, bool, error) {
	b.mu.Lock()
	a, ok := b.pending[k]
	b.mu.Unlock()
	if ok {
		return a, true, nil
	}
	return b.db.Annotation(ctx, k)
}

// Annotations implements roundtable.AnnotationStore; it sees only what
// was flushed.
func (b *annotationBuffer) Annotations(ctx context.Context, table string) ([]roundtable.Annotation, error) {
	return b.db.Annotations(ctx, table)
}

// flush writes the buffered annotations.
func (b *annotationBuffer) flush(ctx context.Context) error {
	b.mu.Lock()
	as := make([]roundtable.Annotation, 0, len(b.pending))
	for _, a := range b.pending {
		as = append(as, a)
	}
	b.pending = nil
	b.mu.Unlock()
	return b.db.PutAnnotations(ctx, as)
}
