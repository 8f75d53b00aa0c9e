package store

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Bindings implements Walker.
func (db *DB) Bindings(ctx context.Context, fn func(key, table string) error) error {
	if err := checkCtx(ctx, "list bindings"); err != nil {
		return err
	}
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBindings).ForEach(func(k, v []byte) error { return fn(string(k), string(v)) })
	})
	if err != nil {
		return fmt.Errorf("list bindings: %w", err)
	}
	return nil
}

// BlobNamespaces implements Walker: the names of the "blobs/<ns>" buckets.
func (db *DB) BlobNamespaces(ctx context.Context) ([]string, error) {
	if err := checkCtx(ctx, "list blob namespaces"); err != nil {
		return nil, err
	}
	var out []string
	prefix := blobBucket("")
	err := db.bolt.View(func(tx *bolt.Tx) error {
		c := tx.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			out = append(out, string(k[len(prefix):]))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list blob namespaces: %w", err)
	}
	return out, nil
}

// AnnotatedTables implements Walker.
func (db *DB) AnnotatedTables(ctx context.Context) ([]string, error) {
	if err := checkCtx(ctx, "list annotated tables"); err != nil {
		return nil, err
	}
	var out []string
	err := db.bolt.View(func(tx *bolt.Tx) error {
		root := tx.Bucket(bucketAnnotations)
		if root == nil {
			return nil
		}
		return root.ForEachBucket(func(k []byte) error {
			out = append(out, string(k))
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list annotated tables: %w", err)
	}
	return out, nil
}
