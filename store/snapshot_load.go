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
	seq      uint64
	done     int
	crc      uint32   // of the encoded event at seq
	state    []byte   // State JSON without the ended rounds
	archived int      // leading ended rounds not read
	rounds   [][]byte // the ended rounds read: archived+1..done
}

// LoadSnapshot implements roundtable.SnapshotStore. The snapshot and the
// events after it are read in one transaction and decoded after it.
func (db *DB) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	return db.loadSnapshot(ctx, table, -1)
}

// LoadRecentSnapshot implements roundtable.ArchiveStore: LoadSnapshot
// reading only the last keep ended rounds, so that opening a long table
// touches neither its log nor its history.
func (db *DB) LoadRecentSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	s, events, err := db.loadSnapshot(ctx, table, max(keep, 0))
	if err == nil && s != nil && s.Archived > 0 && s.Past == nil { // written before Past: read it whole
		return db.loadSnapshot(ctx, table, -1)
	}
	return s, events, err
}

// loadSnapshot reads the snapshot with its last keep ended rounds (all
// when keep < 0) and the events after it.
func (db *DB) loadSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	if err := checkCtx(ctx, "load table "+table); err != nil {
		return nil, nil, err
	}
	var snap *storedSnapshot
	var raw [][]byte
	err := db.view(table, func(tx *bolt.Tx) error {
		log := tx.Bucket(bucketTables).Bucket([]byte(table))
		if log == nil {
			return roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
		}
		var err error
		if snap, err = readSnapshot(tx, table, keep); err != nil {
			return err
		}
		from := uint64(1)
		if snap != nil {
			if err := snap.fits(log, table); err != nil {
				return err
			}
			from = snap.seq + 1
		}
		readFrom(log, from, &raw)
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

// readSnapshot copies table's snapshot out of tx, with its last keep ended
// rounds (all when keep < 0); nil when it has none.
func readSnapshot(tx *bolt.Tx, table string, keep int) (*storedSnapshot, error) {
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
	if keep >= 0 {
		s.archived = max(s.done-keep, 0)
	}
	rounds, err := readRounds(rb, s.archived+1, s.done)
	if err != nil {
		return nil, fmt.Errorf("snapshot of table %s: %w", table, err)
	}
	s.rounds = rounds
	return s, nil
}

// readRounds copies the stored rounds from..to (both included) out of rb.
func readRounds(rb *bolt.Bucket, from, to int) ([][]byte, error) {
	var out [][]byte
	c := rb.Cursor()
	for k, v := c.Seek(encodeSeq(uint64(from))); k != nil && from+len(out) <= to; k, v = c.Next() {
		if decodeSeq(k) != uint64(from+len(out)) {
			break
		}
		out = append(out, bytes.Clone(v))
	}
	if n := to - from + 1; len(out) < n {
		return nil, fmt.Errorf("round %d is not stored (rounds %d-%d asked)", from+len(out), from, to)
	}
	return out, nil
}

// LoadRounds implements roundtable.ArchiveStore.
func (db *DB) LoadRounds(ctx context.Context, table string, from, to int) ([]roundtable.RoundRecord, error) {
	if err := checkCtx(ctx, "load rounds of table "+table); err != nil {
		return nil, err
	}
	if from < 1 || to < from {
		return nil, roundtable.Errorf(roundtable.Invalid, "table %s: no rounds %d-%d", table, from, to)
	}
	var raw [][]byte
	err := db.view(table, func(tx *bolt.Tx) error {
		rb := storedRounds(tx, table)
		if rb == nil {
			return roundtable.Errorf(roundtable.NotFound, "table %s has no stored rounds", table)
		}
		var err error
		raw, err = readRounds(rb, from, to)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load rounds %d-%d of table %s: %w", from, to, table, err)
	}
	out := make([]roundtable.RoundRecord, len(raw))
	for i, b := range raw {
		if err := decodeRound(b, from+i, &out[i]); err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
	}
	return out, nil
}

// decodeRound decodes the stored round n into r.
func decodeRound(b []byte, n int, r *roundtable.RoundRecord) error {
	if err := json.Unmarshal(b, r); err != nil {
		return fmt.Errorf("decode round %d: %w", n, err)
	}
	if r.Round != n {
		return fmt.Errorf("round %d is stored as round %d", n, r.Round)
	}
	return nil
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
	rounds := make([]roundtable.RoundRecord, s.done, s.done+len(st.Rounds))
	for i := range s.archived {
		rounds[i] = roundtable.RoundRecord{Round: i + 1}
	}
	for i, b := range s.rounds {
		if err := decodeRound(b, s.archived+i+1, &rounds[s.archived+i]); err != nil {
			return nil, fmt.Errorf("snapshot of table %s: %w", table, err)
		}
	}
	st.Archived = s.archived
	st.Rounds = append(rounds, st.Rounds...)
	if len(st.Rounds) == 0 {
		st.Rounds = nil
	}
	return &st, nil
}

// readFrom appends to raw copies of the encoded events from Seq from on;
// those before a damaged page stay when reading it panics.
func readFrom(log *bolt.Bucket, from uint64, raw *[][]byte) {
	c := log.Cursor()
	for k, v := c.Seek(encodeSeq(from)); k != nil; k, v = c.Next() {
		*raw = append(*raw, bytes.Clone(v)) // v is valid only inside the tx
	}
}
