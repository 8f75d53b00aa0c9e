package store

import (
	"context"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Blobs as append-only records: an adapter that keeps a growing list (the
// web channel's posts) adds one record per change under an increasing
// key, never rewriting what it stored, and drops the whole namespace when
// the list expires.

// AddBlob stores v under key in namespace ns, as PutBlob does, through the
// batched write path: concurrent calls, in any namespaces, share a
// transaction and its fsync. It returns once v is durable.
func (db *DB) AddBlob(ctx context.Context, ns, key string, v []byte) error {
	if err := checkCtx(ctx, "add blob "+ns+"/"+key); err != nil {
		return err
	}
	if err := checkRecord(ns, key); err != nil {
		return err
	}
	fn := func(tx *bolt.Tx) error { return putRecord(tx, ns, key, v) }
	if err := db.write("", fn); err != nil {
		return fmt.Errorf("add blob %s/%s: %w", ns, key, err)
	}
	return nil
}

// checkRecord refuses a record without a namespace or a key.
func checkRecord(ns, key string) error {
	if ns == "" || key == "" {
		return roundtable.Errorf(roundtable.Invalid, "blob needs a namespace and a key (got %q, %q)", ns, key)
	}
	return nil
}

// putRecord stores v under key in namespace ns, in tx.
func putRecord(tx *bolt.Tx, ns, key string, v []byte) error {
	b, err := tx.CreateBucketIfNotExists(blobBucket(ns))
	if err != nil {
		return err
	}
	b.FillPercent = appendFill // records are added under growing keys
	return b.Put([]byte(key), v)
}

// EachBlob calls fn with every key and value of namespace ns, in key
// order (bytewise), within one read transaction; v is valid only during
// the call. An error from fn stops the walk and is returned.
func (db *DB) EachBlob(ctx context.Context, ns string, fn func(key string, v []byte) error) error {
	if err := checkCtx(ctx, "read blobs "+ns); err != nil {
		return err
	}
	err := db.view("", func(tx *bolt.Tx) error {
		b := tx.Bucket(blobBucket(ns))
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error { return fn(string(k), v) })
	})
	if err != nil {
		return fmt.Errorf("read blobs %s: %w", ns, err)
	}
	return nil
}

// DeleteBlob removes key from namespace ns; removing an absent key is not
// an error.
func (db *DB) DeleteBlob(ctx context.Context, ns, key string) error {
	if err := checkCtx(ctx, "delete blob "+ns+"/"+key); err != nil {
		return err
	}
	err := db.update("", func(tx *bolt.Tx) error {
		if b := tx.Bucket(blobBucket(ns)); b != nil {
			return b.Delete([]byte(key))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("delete blob %s/%s: %w", ns, key, err)
	}
	return nil
}

// DropBlobs removes namespace ns and everything in it; dropping an absent
// namespace is not an error.
func (db *DB) DropBlobs(ctx context.Context, ns string) error {
	if err := checkCtx(ctx, "drop blobs "+ns); err != nil {
		return err
	}
	err := db.update("", func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(blobBucket(ns)); err != nil && !errors.Is(err, bolt.ErrBucketNotFound) {
			return err
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("drop blobs %s: %w", ns, err)
	}
	return nil
}
