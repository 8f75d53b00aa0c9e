package store

import (
	"bytes"
	"context"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Bind maps a chat location (key, such as "discord:<channelID>") to a
// table, replacing any earlier binding of key.
func (db *DB) Bind(ctx context.Context, key, table string) error {
	if err := checkCtx(ctx, "bind "+key); err != nil {
		return err
	}
	if key == "" || table == "" {
		return roundtable.Errorf(roundtable.Invalid, "binding needs a key and a table (got %q → %q)", key, table)
	}
	err := db.write("", func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBindings).Put([]byte(key), []byte(table))
	})
	if err != nil {
		return fmt.Errorf("bind %s to table %s: %w", key, table, err)
	}
	return nil
}

// Lookup returns the table bound to key, and whether there is one.
func (db *DB) Lookup(ctx context.Context, key string) (table string, ok bool, err error) {
	if err := checkCtx(ctx, "look up "+key); err != nil {
		return "", false, err
	}
	err = db.view("", func(tx *bolt.Tx) error {
		v := tx.Bucket(bucketBindings).Get([]byte(key))
		table, ok = string(v), v != nil // string() copies
		return nil
	})
	if err != nil {
		return "", false, fmt.Errorf("look up %s: %w", key, err)
	}
	return table, ok, nil
}

// Unbind removes key's binding; removing an absent one is not an error.
func (db *DB) Unbind(ctx context.Context, key string) error {
	if err := checkCtx(ctx, "unbind "+key); err != nil {
		return err
	}
	err := db.write("", func(tx *bolt.Tx) error {
		return tx.Bucket(bucketBindings).Delete([]byte(key))
	})
	if err != nil {
		return fmt.Errorf("unbind %s: %w", key, err)
	}
	return nil
}

// PutBlob stores v under key in namespace ns (bucket "blobs/<ns>"), for
// adapter bookkeeping such as the IDs of posted messages.
func (db *DB) PutBlob(ctx context.Context, ns, key string, v []byte) error {
	if err := checkCtx(ctx, "put blob "+ns+"/"+key); err != nil {
		return err
	}
	if ns == "" || key == "" {
		return roundtable.Errorf(roundtable.Invalid, "blob needs a namespace and a key (got %q, %q)", ns, key)
	}
	err := db.write("", func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(blobBucket(ns))
		if err != nil {
			return err
		}
		return b.Put([]byte(key), v)
	})
	if err != nil {
		return fmt.Errorf("put blob %s/%s: %w", ns, key, err)
	}
	return nil
}

// GetBlob returns a copy of the value under key in namespace ns, and whether
// there is one.
func (db *DB) GetBlob(ctx context.Context, ns, key string) (v []byte, ok bool, err error) {
	if err := checkCtx(ctx, "get blob "+ns+"/"+key); err != nil {
		return nil, false, err
	}
	err = db.view("", func(tx *bolt.Tx) error {
		b := tx.Bucket(blobBucket(ns))
		if b == nil {
			return nil
		}
		if got := b.Get([]byte(key)); got != nil {
			v, ok = bytes.Clone(got), true // got is valid only inside the tx
		}
		return nil
	})
	if err != nil {
		return nil, false, fmt.Errorf("get blob %s/%s: %w", ns, key, err)
	}
	return v, ok, nil
}

func blobBucket(ns string) []byte { return []byte("blobs/" + ns) }
