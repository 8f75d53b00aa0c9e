package store

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// BlobRanges returns copies of the keys and values of namespace ns in any
// of the ranges, read in one transaction. A range is the keys from its
// first string (included) to its second (excluded; empty: no end). Only the pages of those ranges
// are read, so a caller that needs a few slices of a large namespace
// neither decodes nor touches the rest.
func (db *DB) BlobRanges(ctx context.Context, ns string, ranges [][2]string) (map[string][]byte, error) {
	if err := checkCtx(ctx, "list blobs "+ns); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	err := db.view("", func(tx *bolt.Tx) error {
		b := tx.Bucket(blobBucket(ns))
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for _, r := range ranges {
			to := []byte(r[1])
			for k, v := c.Seek([]byte(r[0])); k != nil && (len(to) == 0 || bytes.Compare(k, to) < 0); k, v = c.Next() {
				out[string(k)] = bytes.Clone(v)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list blobs %s: %w", ns, err)
	}
	return out, nil
}
