package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// PutAnnotations stores annotations in one transaction (one disk sync),
// replacing any under the same keys: what PutAnnotation does for each,
// for callers that measure many messages at once. Nothing is stored when
// one is invalid.
func (db *DB) PutAnnotations(ctx context.Context, as []roundtable.Annotation) error {
	if len(as) == 0 {
		return nil
	}
	if err := checkCtx(ctx, "store annotations"); err != nil {
		return err
	}
	vals := make([][]byte, len(as))
	for i, a := range as {
		v, err := encodeAnnotation(a)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	err := db.update("", func(tx *bolt.Tx) error {
		root, err := tx.CreateBucketIfNotExists(bucketAnnotations)
		if err != nil {
			return err
		}
		for i, a := range as {
			b, err := root.CreateBucketIfNotExists([]byte(a.Table))
			if err != nil {
				return err
			}
			if err := b.Put(annotationKey(a.Key()), vals[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("store %d annotations: %w", len(as), err)
	}
	return nil
}

// encodeAnnotation checks a's key and encodes it for the annotations
// bucket.
func encodeAnnotation(a roundtable.Annotation) ([]byte, error) {
	k := a.Key()
	if err := k.Valid(); err != nil {
		return nil, err
	}
	if strings.ContainsRune(k.Instrument, 0) {
		return nil, roundtable.Errorf(roundtable.Invalid, "instrument name %q contains a NUL byte", k.Instrument)
	}
	v, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("encode annotation %s/%d/%s: %w", k.Table, k.Seq, k.Instrument, err)
	}
	return v, nil
}
