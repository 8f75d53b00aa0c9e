package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

var _ roundtable.AnnotationStore = (*DB)(nil)

// PutAnnotation implements roundtable.AnnotationStore.
func (db *DB) PutAnnotation(ctx context.Context, a roundtable.Annotation) error {
	k := a.Key()
	if err := db.checkWrite(ctx, "store annotation of table "+k.Table); err != nil {
		return err
	}
	v, err := store.EncodeAnnotation(a)
	if err != nil {
		return err
	}
	if _, err := db.cli.Put(ctx, db.keys.ann(k.Table, store.AnnotationKey(k)), string(v)); err != nil {
		return fmt.Errorf("store annotation %s/%d/%s: %w", k.Table, k.Seq, k.Instrument, err)
	}
	return nil
}

// PutAnnotations stores annotations, replacing any under the same keys:
// in one transaction when they fit in one, else in several, in order.
// Nothing is stored when one is invalid.
func (db *DB) PutAnnotations(ctx context.Context, as []roundtable.Annotation) error {
	if len(as) == 0 {
		return nil
	}
	if err := db.checkWrite(ctx, "store annotations"); err != nil {
		return err
	}
	ps := make([]put, len(as))
	for i, a := range as {
		v, err := store.EncodeAnnotation(a)
		if err != nil {
			return err
		}
		ps[i] = put{db.keys.ann(a.Table, store.AnnotationKey(a.Key())), v}
	}
	if err := db.putAll(ctx, ps); err != nil {
		return fmt.Errorf("store %d annotations: %w", len(as), err)
	}
	return nil
}

// Annotation implements roundtable.AnnotationStore.
func (db *DB) Annotation(ctx context.Context, k roundtable.AnnotationKey) (roundtable.Annotation, bool, error) {
	var a roundtable.Annotation
	if err := k.Valid(); err != nil {
		return a, false, err
	}
	v, ok, err := db.get(ctx, "load annotation of table "+k.Table, db.keys.ann(k.Table, store.AnnotationKey(k)))
	if err != nil || !ok {
		return a, false, err
	}
	if err := json.Unmarshal(v, &a); err != nil {
		return a, false, fmt.Errorf("load annotation %s/%d/%s: %w", k.Table, k.Seq, k.Instrument, err)
	}
	return a, true, nil
}

// Annotations implements roundtable.AnnotationStore: table's annotations
// in Seq, instrument, model order.
func (db *DB) Annotations(ctx context.Context, table string) ([]roundtable.Annotation, error) {
	if err := checkCtx(ctx, "load annotations of table "+table); err != nil {
		return nil, err
	}
	var out []roundtable.Annotation
	root := db.keys.anns(table)
	err := consistent(func() error {
		out = out[:0]
		_, err := db.rangeAt(ctx, root, clientv3.GetPrefixRangeEnd(root), 0, func(kv *mvccpb.KeyValue) error {
			var a roundtable.Annotation
			if err := json.Unmarshal(kv.Value, &a); err != nil {
				return fmt.Errorf("decode annotation %x: %w", kv.Key[len(root):], err)
			}
			out = append(out, a)
			return nil
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load annotations of table %s: %w", table, err)
	}
	return out, nil
}
