package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// bucketAnnotations holds annotations/<table ID> buckets whose keys are
// the 8-byte big-endian Seq, the instrument, a NUL and the model, so a
// cursor walks them in Seq, instrument, model order. They live apart from
// tables/ so that a table's log replays without them.
var bucketAnnotations = []byte("annotations")

var _ roundtable.AnnotationStore = (*DB)(nil)

// PutAnnotation implements roundtable.AnnotationStore.
func (db *DB) PutAnnotation(ctx context.Context, a roundtable.Annotation) error {
	k := a.Key()
	if err := checkCtx(ctx, "store annotation of table "+k.Table); err != nil {
		return err
	}
	v, err := encodeAnnotation(a)
	if err != nil {
		return err
	}
	err = db.update(k.Table, func(tx *bolt.Tx) error {
		root, err := tx.CreateBucketIfNotExists(bucketAnnotations)
		if err != nil {
			return err
		}
		b, err := root.CreateBucketIfNotExists([]byte(k.Table))
		if err != nil {
			return err
		}
		return b.Put(annotationKey(k), v)
	})
	if err != nil {
		return fmt.Errorf("store annotation %s/%d/%s: %w", k.Table, k.Seq, k.Instrument, err)
	}
	return nil
}

// Annotation implements roundtable.AnnotationStore.
func (db *DB) Annotation(ctx context.Context, k roundtable.AnnotationKey) (roundtable.Annotation, bool, error) {
	var a roundtable.Annotation
	if err := checkCtx(ctx, "load annotation of table "+k.Table); err != nil {
		return a, false, err
	}
	if err := k.Valid(); err != nil {
		return a, false, err
	}
	var found bool
	err := db.view(k.Table, func(tx *bolt.Tx) error {
		b := annotationBucket(tx, k.Table)
		if b == nil {
			return nil
		}
		v := b.Get(annotationKey(k))
		if v == nil {
			return nil
		}
		found = true
		return json.Unmarshal(v, &a)
	})
	if err != nil {
		return a, false, fmt.Errorf("load annotation %s/%d/%s: %w", k.Table, k.Seq, k.Instrument, err)
	}
	return a, found, nil
}

// Annotations implements roundtable.AnnotationStore.
func (db *DB) Annotations(ctx context.Context, table string) ([]roundtable.Annotation, error) {
	if err := checkCtx(ctx, "load annotations of table "+table); err != nil {
		return nil, err
	}
	var out []roundtable.Annotation
	err := db.view(table, func(tx *bolt.Tx) error {
		b := annotationBucket(tx, table)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var a roundtable.Annotation
			if err := json.Unmarshal(v, &a); err != nil {
				return fmt.Errorf("decode annotation %x: %w", k, err)
			}
			out = append(out, a)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("load annotations of table %s: %w", table, err)
	}
	return out, nil
}

func annotationBucket(tx *bolt.Tx, table string) *bolt.Bucket {
	root := tx.Bucket(bucketAnnotations)
	if root == nil {
		return nil
	}
	return root.Bucket([]byte(table))
}

func annotationKey(k roundtable.AnnotationKey) []byte {
	key := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(k.Instrument)+1+len(k.Model)), k.Seq)
	key = append(key, k.Instrument...)
	key = append(key, 0)
	return append(key, k.Model...)
}
