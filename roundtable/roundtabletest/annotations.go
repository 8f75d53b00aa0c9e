package roundtabletest

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// MemAnnotations is an in-memory roundtable.AnnotationStore for tests. The
// zero value is ready to use.
type MemAnnotations struct {
	mu sync.Mutex
	m  map[roundtable.AnnotationKey]roundtable.Annotation
}

var _ roundtable.AnnotationStore = (*MemAnnotations)(nil)

// PutAnnotation implements roundtable.AnnotationStore.
func (s *MemAnnotations) PutAnnotation(ctx context.Context, a roundtable.Annotation) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := a.Key().Valid(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[roundtable.AnnotationKey]roundtable.Annotation{}
	}
	s.m[a.Key()] = a
	return nil
}

// Annotation implements roundtable.AnnotationStore.
func (s *MemAnnotations) Annotation(ctx context.Context, k roundtable.AnnotationKey) (roundtable.Annotation, bool, error) {
	if err := ctx.Err(); err != nil {
		return roundtable.Annotation{}, false, err
	}
	if err := k.Valid(); err != nil {
		return roundtable.Annotation{}, false, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a, ok := s.m[k]
	return a, ok, nil
}

// Annotations implements roundtable.AnnotationStore.
func (s *MemAnnotations) Annotations(ctx context.Context, table string) ([]roundtable.Annotation, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	var out []roundtable.Annotation
	for k, a := range s.m {
		if k.Table == table {
			out = append(out, a)
		}
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b roundtable.Annotation) int {
		return cmp.Or(cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.Instrument, b.Instrument), cmp.Compare(a.Model, b.Model))
	})
	return out, nil
}
