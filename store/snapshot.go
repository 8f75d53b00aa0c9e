package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// A snapshot is stored in two parts. Rounds that have ended never change,
// so each is stored once, under its number, in snapshot-rounds/<table>; the
// snapshot itself (snapshots: table → head) is the state without them. A
// snapshot then costs the rounds that ended since the last one plus the
// round in progress, not the table's whole history, and appends stay
// linear in the length of a table.
//
// head: 8-byte big-endian Seq, 8-byte number of ended rounds, the CRC-32 of
// the encoded event at Seq (so a snapshot is never applied to a log other
// than its own), then the State JSON without the ended rounds.

// AppendSnapshot implements roundtable.SnapshotStore: Append, and in the
// same transaction snap replaces the table's snapshot. Files written before
// snapshots existed get the buckets on their next write; their tables have
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

// snapWrite is a snapshot encoded for a write.
type snapWrite struct {
	table  string
	state  *roundtable.State // unchanged until the append returns
	done   int               // rounds that have ended
	from   int               // of those, how many are stored, as far as the cache knows
	rounds [][]byte          // rounds from+1..done, encoded
	head   []byte
}

// snapCache remembers how many ended rounds each table has stored, so that
// a snapshot encodes only the newer ones outside its transaction.
type snapCache struct {
	mu     sync.Mutex
	stored map[string]int
}

// prepareSnapshot encodes s, the state after the event encoded as last.
func (db *DB) prepareSnapshot(table string, s *roundtable.State, last []byte) (*snapWrite, error) {
	w := &snapWrite{table: table, state: s, done: min(max(s.Round-1, 0), len(s.Rounds))}
	from, err := db.snaps.get(db, table)
	if err != nil {
		return nil, err
	}
	w.from = min(from, w.done)
	if w.from < s.Archived {
		return nil, fmt.Errorf("snapshot of table %s: rounds %d-%d are archived but only %d are stored", table, w.from+1, s.Archived, w.from)
	}
	if w.rounds, err = encodeRounds(s.Rounds[w.from:w.done]); err != nil {
		return nil, err
	}
	w.head, err = encodeHead(s, w.done, crc32.ChecksumIEEE(last))
	return w, err
}

func encodeRounds(rs []roundtable.RoundRecord) ([][]byte, error) {
	out := make([][]byte, len(rs))
	for i := range rs {
		b, err := json.Marshal(&rs[i])
		if err != nil {
			return nil, fmt.Errorf("encode round %d: %w", rs[i].Round, err)
		}
		out[i] = b
	}
	return out, nil
}

// encodeHead encodes s without its first done rounds; crc is the checksum
// of the encoded event at s.Seq.
func encodeHead(s *roundtable.State, done int, crc uint32) ([]byte, error) {
	h := *s
	h.Rounds = s.Rounds[done:]
	b, err := json.Marshal(&h)
	if err != nil {
		return nil, fmt.Errorf("encode snapshot at seq %d: %w", s.Seq, err)
	}
	head := binary.BigEndian.AppendUint64(encodeSeq(s.Seq), uint64(done))
	head = binary.BigEndian.AppendUint32(head, crc)
	return append(head, b...), nil
}

// put stores the rounds the table has not stored yet and the head.
func (w *snapWrite) put(tx *bolt.Tx) error {
	rb, err := roundsBucket(tx, w.table)
	if err != nil {
		return err
	}
	stored := 0
	if k, _ := rb.Cursor().Last(); k != nil {
		stored = int(decodeSeq(k))
	}
	if stored < w.from { // the cache was ahead of the file: encode the gap here
		if stored < w.state.Archived {
			return fmt.Errorf("snapshot of table %s: rounds %d-%d are archived but not stored", w.table, stored+1, w.state.Archived)
		}
		gap, err := encodeRounds(w.state.Rounds[stored:w.from])
		if err != nil {
			return err
		}
		if err := putRounds(rb, stored, gap); err != nil {
			return err
		}
	}
	if err := putRounds(rb, w.from, w.rounds); err != nil {
		return err
	}
	return putSnapshot(tx, w.table, w.head)
}

func roundsBucket(tx *bolt.Tx, table string) (*bolt.Bucket, error) {
	top, err := tx.CreateBucketIfNotExists(bucketSnapRounds)
	if err != nil {
		return nil, fmt.Errorf("create snapshot rounds bucket: %w", err)
	}
	rb, err := top.CreateBucketIfNotExists([]byte(table))
	if err != nil {
		return nil, fmt.Errorf("create snapshot rounds bucket of table %s: %w", table, err)
	}
	rb.FillPercent = appendFill
	return rb, nil
}

// storedRounds is table's bucket of ended rounds; nil when it has none.
func storedRounds(tx *bolt.Tx, table string) *bolt.Bucket {
	top := tx.Bucket(bucketSnapRounds)
	if top == nil {
		return nil
	}
	return top.Bucket([]byte(table))
}

// putRounds stores encoded rounds after the first `after`.
func putRounds(rb *bolt.Bucket, after int, rounds [][]byte) error {
	for i, b := range rounds {
		if err := rb.Put(encodeSeq(uint64(after+i+1)), b); err != nil {
			return fmt.Errorf("put round %d: %w", after+i+1, err)
		}
	}
	return nil
}

// putSnapshot replaces table's snapshot head with v.
func putSnapshot(tx *bolt.Tx, table string, v []byte) error {
	b, err := tx.CreateBucketIfNotExists(bucketSnaps)
	if err != nil {
		return fmt.Errorf("create snapshot bucket: %w", err)
	}
	if err := b.Put([]byte(table), v); err != nil {
		return fmt.Errorf("put snapshot of table %s: %w", table, err)
	}
	return nil
}

// get returns how many ended rounds of table are stored: the cached count,
// else the count in the file.
func (c *snapCache) get(db *DB, table string) (int, error) {
	c.mu.Lock()
	n, ok := c.stored[table]
	c.mu.Unlock()
	if ok {
		return n, nil
	}
	err := db.view(table, func(tx *bolt.Tx) error {
		if rb := storedRounds(tx, table); rb != nil {
			if k, _ := rb.Cursor().Last(); k != nil {
				n = int(decodeSeq(k))
			}
		}
		return nil
	})
	return n, err
}

// remember records that table has stored n ended rounds; an ended table is
// forgotten.
func (c *snapCache) remember(table string, n int, ended bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ended {
		delete(c.stored, table)
		return
	}
	if c.stored == nil {
		c.stored = map[string]int{}
	}
	c.stored[table] = max(c.stored[table], n)
}

// appendFill is how full bbolt fills a page before it splits one, in the
// buckets whose keys only grow (a table's log, its ended rounds). bbolt's
// default of one half suits random inserts; appended keys never land in
// an earlier page again, so at one half every page of a log would stay
// half empty: twice the file, and twice the pages a resume reads.
const appendFill = 0.95
