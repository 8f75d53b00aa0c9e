package store

import (
	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// PutRawSnapshot stores v as table's snapshot as it is, for tests of
// damaged snapshots.
func (db *DB) PutRawSnapshot(table string, v []byte) error {
	return db.bolt.Update(func(tx *bolt.Tx) error { return putSnapshot(tx, table, v) })
}

// DropSnapshots removes the snapshot bucket, as in a file written before
// snapshots existed.
func (db *DB) DropSnapshots() error {
	return db.bolt.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketSnaps) })
}

// EncodeSnapshot is encodeSnapshot, for tests.
var EncodeSnapshot = encodeSnapshot

// CacheIndexEntry puts s in the index cache as table's entry, for tests of
// a stale cache.
func (db *DB) CacheIndexEntry(table string, s roundtable.Summary) {
	db.index.mu.Lock()
	defer db.index.mu.Unlock()
	if db.index.entries == nil {
		db.index.entries = map[string]roundtable.Summary{}
	}
	db.index.entries[table] = s
}

// BatchDelay is batchDelay, so that benchmarks give raw bbolt the same.
const BatchDelay = batchDelay
