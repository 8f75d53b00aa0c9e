package store

import (
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
	err := db.batch("", fn)
	db.pending.Add(-1)
	if err != nil {
		return fmt.Errorf("put %d blobs in %s: %w", len(kv), ns, err)
	}
	return nil
}

// Blobs returns copies of the keys and values in namespace ns whose keys
// start with prefix (every one for an empty prefix).
func (db *DB) Blobs(ctx context.Context, ns, prefix string) (map[string][]byte, error) {
	return db.BlobRanges(ctx, ns, [][2]string{{prefix, prefixEnd(prefix)}})
}

// prefixEnd is the first key after every key that starts with prefix, or
// "" (no end) when there is none.
func prefixEnd(prefix string) string {
	p := []byte(prefix)
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] < 0xff {
			p[i]++
			return string(p[:i+1])
		}
	}
	return ""
}
