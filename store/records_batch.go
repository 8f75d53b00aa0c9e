package store

import (
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// AddBlobs stores records of any namespaces in one transaction of the
// batched write path, all or none, and returns once they are durable. A
// writer that queues records and writes them in order (the web channel's
// rooms) so loses at most its latest ones in a crash, never one before a
// record that survived.
func (db *DB) AddBlobs(ctx context.Context, recs []struct {
	NS, Key string
	Value   []byte
}) error {
	if err := checkCtx(ctx, "add blobs"); err != nil {
		return err
	}
	for _, r := range recs {
		if r.NS == "" || r.Key == "" {
			return roundtable.Errorf(roundtable.Invalid, "blob needs a namespace and a key (got %q, %q)", r.NS, r.Key)
		}
	}
	if len(recs) == 0 {
		return nil
	}
	fn := func(tx *bolt.Tx) error {
		for _, r := range recs {
			b, err := tx.CreateBucketIfNotExists(blobBucket(r.NS))
			if err != nil {
				return err
			}
			b.FillPercent = appendFill // records are added under growing keys
			if err := b.Put([]byte(r.Key), r.Value); err != nil {
				return err
			}
		}
		return nil
	}
	if err := db.write(fn); err != nil {
		return fmt.Errorf("add %d blobs: %w", len(recs), err)
	}
	return nil
}
