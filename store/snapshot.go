package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// AppendSnapshot implements roundtable.SnapshotStore: Append, and in the
// same transaction snap replaces the table's snapshot. Files written before
// snapshots existed get the bucket on their next Open; their tables have
// no snapshot until their next one is due.
func (db *DB) AppendSnapshot(ctx context.Context, table string, events []roundtable.Event, snap *roundtable.State) error {
	if snap == nil {
		return roundtable.Errorf(roundtable.Invalid, "table %s: no snapshot to append", table)
	}
	if n := len(events); n == 0 || snap.Seq != events[n-1].Seq || snap.ID != table {
		return roundtable.Errorf(roundtable.Invalid, "table %s: the snapshot (table %q, seq %d) is not the state after the appended events", table, snap.ID, snap.Seq)
	}
	return db.append(ctx, table, events, snap)
}

// LoadSnapshot implements roundtable.SnapshotStore. The snapshot and the
// events after it are read in one transaction and decoded after it.
func (db *DB) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	if err := checkCtx(ctx, "load table "+table); err != nil {
		return nil, nil, err
	}
	var snap []byte
	var raw [][]byte
	err := db.bolt.View(func(tx *bolt.Tx) error {
		log := tx.Bucket(bucketTables).Bucket([]byte(table))
		if log == nil {
			return roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
		}
		from := uint64(1)
		if b := tx.Bucket(bucketSnaps); b != nil {
			if v := b.Get([]byte(table)); v != nil {
				snap = bytes.Clone(v)
				from = snapshotSeq(v) + 1
			}
		}
		if k, _ := log.Cursor().Last(); k == nil || decodeSeq(k) < from-1 {
			return fmt.Errorf("the snapshot of table %s is ahead of its log", table)
		}
		raw = readFrom(log, from)
		return nil
	})
	if err != nil {
		if roundtable.ErrorCode(err) == roundtable.NotFound {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("load table %s: %w", table, err)
	}
	events, err := decodeEvents(table, raw)
	if err != nil || snap == nil {
		return nil, events, err
	}
	s, err := decodeSnapshot(table, snap)
	if err != nil {
		return nil, nil, err
	}
	return s, events, nil
}

// readFrom copies the encoded events from Seq from on.
func readFrom(log *bolt.Bucket, from uint64) [][]byte {
	var raw [][]byte
	c := log.Cursor()
	for k, v := c.Seek(encodeSeq(from)); k != nil; k, v = c.Next() {
		raw = append(raw, bytes.Clone(v)) // v is valid only inside the tx
	}
	return raw
}

func encodeSnapshot(s *roundtable.State) ([]byte, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encode snapshot at seq %d: %w", s.Seq, err)
	}
	return append(encodeSeq(s.Seq), b...), nil
}

// snapshotSeq is the Seq a stored snapshot was taken at; 0 (replay the
// whole log) when the value is too short to say.
func snapshotSeq(v []byte) uint64 {
	if len(v) < 8 {
		return 0
	}
	return decodeSeq(v[:8])
}

func decodeSnapshot(table string, v []byte) (*roundtable.State, error) {
	if len(v) < 8 {
		return nil, fmt.Errorf("snapshot of table %s is truncated (%d bytes)", table, len(v))
	}
	var s roundtable.State
	if err := json.Unmarshal(v[8:], &s); err != nil {
		return nil, fmt.Errorf("decode snapshot of table %s: %w", table, err)
	}
	if seq := decodeSeq(v[:8]); s.Seq != seq || s.ID != table {
		return nil, fmt.Errorf("snapshot of table %s says table %q at seq %d, stored at seq %d", table, s.ID, s.Seq, seq)
	}
	return &s, nil
}

// putSnapshot replaces table's snapshot with v, the encoded one; nil
// leaves it as it is.
func putSnapshot(tx *bolt.Tx, table string, v []byte) error {
	if v == nil {
		return nil
	}
	b, err := tx.CreateBucketIfNotExists(bucketSnaps)
	if err != nil {
		return fmt.Errorf("create snapshot bucket: %w", err)
	}
	if err := b.Put([]byte(table), v); err != nil {
		return fmt.Errorf("put snapshot of table %s: %w", table, err)
	}
	return nil
}
