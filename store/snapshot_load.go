package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// storedSnapshot is a snapshot as read from the file.
type storedSnapshot struct {
	seq    uint64
	done   int
	crc    uint32   // of the encoded event at seq
	state  []byte   // State JSON without the ended rounds
	rounds [][]byte // the ended rounds
}

// LoadSnapshot implements roundtable.SnapshotStore. The snapshot and the
// events after it are read in one transaction and decoded after it.
func (db *DB) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	if err := checkCtx(ctx, "load table "+table); err != nil {
		return nil, nil, err
	}
	var snap *storedSnapshot
	var raw [][]byte
	err := db.bolt.View(func(tx *bolt.Tx) error {
		log := tx.Bucket(bucketTables).Bucket([]byte(table))
		if log == nil {
			return roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
		}
		var err error
		if snap, err = readSnapshot(tx, table); err != nil {
			return err
		}
		from := uint64(1)
		if snap != nil {
			if err := snap.fits(log, table); err != nil {
				return err
			}
			from = snap.seq + 1
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
	s, err := snap.decode(table)
	if err != nil {
		return nil, nil, err
	}
	return s, events, nil
}

// readSnapshot copies table's snapshot out of tx; nil when it has none.
func readSnapshot(tx *bolt.Tx, table string) (*storedSnapshot, error) {
	b := tx.Bucket(bucketSnaps)
	if b == nil {
		return nil, nil
	}
	v := b.Get([]byte(table))
	if v == nil {
		return nil, nil
	}
	if len(v) < 20 {
		return nil, fmt.Errorf("snapshot of table %s is truncated (%d bytes)", table, len(v))
	}
	s := &storedSnapshot{seq: decodeSeq(v[:8]), done: int(binary.BigEndian.Uint64(v[8:16])),
		crc: binary.BigEndian.Uint32(v[16:20]), state: bytes.Clone(v[20:])}
	if s.done == 0 {
		return s, nil
	}
	rb := storedRounds(tx, table)
	if rb == nil {
		return nil, fmt.Errorf("snapshot of table %s: its %d ended rounds are missing", table, s.done)
	}
	c := rb.Cursor()
	for k, v := c.First(); k != nil && len(s.rounds) < s.done; k, v = c.Next() {
		if decodeSeq(k) != uint64(len(s.rounds)+1) {
			return nil, fmt.Errorf("snapshot of table %s: round %d is missing", table, len(s.rounds)+1)
		}
		s.rounds = append(s.rounds, bytes.Clone(v))
	}
	if len(s.rounds) < s.done {
		return nil, fmt.Errorf("snapshot of table %s: %d of its %d ended rounds are stored", table, len(s.rounds), s.done)
	}
	return s, nil
}

// fits checks that the snapshot was taken of this log: the event it was
// taken after is there and is the same.
func (s *storedSnapshot) fits(log *bolt.Bucket, table string) error {
	ev := log.Get(encodeSeq(s.seq))
	if ev == nil {
		return fmt.Errorf("the snapshot of table %s is ahead of its log", table)
	}
	if crc32.ChecksumIEEE(ev) != s.crc {
		return fmt.Errorf("the snapshot of table %s was not taken of its log (event %d differs)", table, s.seq)
	}
	return nil
}

// decode rebuilds the state: the ended rounds, then the rest.
func (s *storedSnapshot) decode(table string) (*roundtable.State, error) {
	var st roundtable.State
	if err := json.Unmarshal(s.state, &st); err != nil {
		return nil, fmt.Errorf("decode snapshot of table %s: %w", table, err)
	}
	if st.Seq != s.seq || st.ID != table {
		return nil, fmt.Errorf("snapshot of table %s says table %q at seq %d, stored at seq %d", table, st.ID, st.Seq, s.seq)
	}
	rounds := make([]roundtable.RoundRecord, len(s.rounds), len(s.rounds)+len(st.Rounds))
	for i, b := range s.rounds {
		if err := json.Unmarshal(b, &rounds[i]); err != nil {
			return nil, fmt.Errorf("decode round %d of the snapshot of table %s: %w", i+1, table, err)
		}
		if rounds[i].Round != i+1 {
			return nil, fmt.Errorf("snapshot of table %s: round %d is stored as round %d", table, i+1, rounds[i].Round)
		}
	}
	st.Rounds = append(rounds, st.Rounds...)
	if len(st.Rounds) == 0 {
		st.Rounds = nil
	}
	return &st, nil
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
