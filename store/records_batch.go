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
func (db *DB) AddBlobs(ctx context.Context, recs []roundtable.Blob) error {
	if err := checkCtx(ctx, "add blobs"); err != nil {
		return err
	}
	for _, r := range recs {
		if err := checkRecord(r.NS, r.Key); err != nil {
			return err
		}
	}
	if len(recs) == 0 {
		return nil
	}
	fn := func(tx *bolt.Tx) error {
		for _, r := range recs {
			if err := putRecord(tx, r.NS, r.Key, r.Value); err != nil {
				return err
			}
		}
		return nil
	}
	if err := db.write("", fn); err != nil {
		return fmt.Errorf("add %d blobs: %w", len(recs), err)
	}
	return nil
}
