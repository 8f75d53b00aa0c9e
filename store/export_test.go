package store

import (
	"encoding/json"
	"hash/crc32"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// PutRawSnapshot stores v as table's snapshot head as it is, for tests of
// damaged snapshots.
func (db *DB) PutRawSnapshot(table string, v []byte) error {
	return db.bolt.Update(func(tx *bolt.Tx) error { return putSnapshot(tx, table, v) })
}

// DropSnapshots removes the snapshot buckets, as in a file written before
// snapshots existed.
func (db *DB) DropSnapshots() error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketSnaps); err != nil {
			return err
		}
		return tx.DeleteBucket(bucketSnapRounds)
	})
}

// DeleteSnapshotRound removes ended round r of table's snapshot.
func (db *DB) DeleteSnapshotRound(table string, r int) error {
	return db.bolt.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketSnapRounds).Bucket([]byte(table)).Delete(encodeSeq(uint64(r)))
	})
}

// EncodeSnapshot encodes s, the state after event last, as a snapshot head
// that holds all its rounds.
func EncodeSnapshot(s *roundtable.State, last roundtable.Event) ([]byte, error) {
	b, err := json.Marshal(last)
	if err != nil {
		return nil, err
	}
	return encodeHead(s, 0, crc32.ChecksumIEEE(b))
}

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
