package store

import (
	"bytes"
	"context"
	"fmt"
	"maps"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// PutBlobs stores every key and value of kv in namespace ns in one
// transaction. It goes the way of Append, always batched: concurrent calls
// and appends share a transaction and its fsync, so many small records
// cost one commit, not one each.
func (db *DB) PutBlobs(ctx context.Context, ns string, kv map[string][]byte) error {
	if err := checkCtx(ctx, "put blobs "+ns); err != nil {
		return err
	}
	if ns == "" {
		return roundtable.Errorf(roundtable.Invalid, "blobs need a namespace")
	}
	if len(kv) == 0 {
		return nil
	}
	kv = maps.Clone(kv) // fn may run again after the caller returns its map
	fn := func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(blobBucket(ns))
		if err != nil {
			return err
		}
		for k, v := range kv {
			if k == "" {
				return roundtable.Errorf(roundtable.Invalid, "blob in %s has an empty key", ns)
			}
			if err := b.Put([]byte(k), v); err != nil {
				return err
			}
		}
		return nil
	}
	// Records are never urgent: they always wait in a batch, which the
	// appends that come meanwhile join (Append sees company pending).
	db.pending.Add(1)
	err := db.bolt.Batch(fn)
	db.pending.Add(-1)
	if err != nil {
		return fmt.Errorf("put %d blobs in %s: %w", len(kv), ns, err)
	}
	return nil
}

// Blobs returns copies of the keys and values in namespace ns whose keys
// start with prefix (every one for an empty prefix).
func (db *DB) Blobs(ctx context.Context, ns, prefix string) (map[string][]byte, error) {
	if err := checkCtx(ctx, "list blobs "+ns); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(blobBucket(ns))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		p := []byte(prefix)
		for k, v := c.Seek(p); k != nil && bytes.HasPrefix(k, p); k, v = c.Next() {
			out[string(k)] = bytes.Clone(v)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list blobs %s/%s: %w", ns, prefix, err)
	}
	return out, nil
}
