package store

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Append implements roundtable.Store. The events are stored and the table's
// index entry updated in one transaction, fsynced before Append returns
// (unless Options.NoSync). Concurrent appends, to any tables, share
// transactions.
func (db *DB) Append(ctx context.Context, table string, events []roundtable.Event) error {
	return db.append(ctx, table, events, nil)
}

// append stores events and, when snap is not nil, the state after them. All
// encoding happens before the transaction, so that the work inside a batch,
// which runs one function at a time, is only bbolt's.
func (db *DB) append(ctx context.Context, table string, events []roundtable.Event, snap *roundtable.State) error {
	if err := checkCtx(ctx, "append to table "+table); err != nil {
		return err
	}
	if len(events) == 0 {
		return nil
	}
	w, err := db.prepare(table, events, snap)
	if err != nil {
		return err
	}
	// w.run decides only from what is in the file, so it may run more than
	// once (Batch retries it alone when another call in its batch fails).
	// A lone caller commits at once; only when other writes are in flight
	// does it join a batch, because a batch waits up to batchDelay for
	// company before it commits.
	err = db.write(table, w.run)
	if roundtable.ErrorCode(err) == roundtable.Conflict {
		return err
	}
	if err != nil {
		return fmt.Errorf("append %d events to table %s: %w", len(events), table, err)
	}
	db.index.remember(table, w.stored)
	if w.snap != nil {
		db.snaps.remember(table, w.snap.done, w.stored.Status == roundtable.StatusEnded)
	}
	return nil
}

// encodeEvents checks that the events belong to table and are consecutive,
// and encodes them.
func encodeEvents(table string, events []roundtable.Event) ([][]byte, error) {
	enc := make([][]byte, len(events))
	for i, e := range events {
		if e.Table != table {
			return nil, roundtable.Errorf(roundtable.Invalid, "event %d belongs to table %q, not %q", e.Seq, e.Table, table)
		}
		if want := events[0].Seq + uint64(i); e.Seq != want {
			return nil, roundtable.Errorf(roundtable.Conflict, "table %s: event seq %d does not follow %d", table, e.Seq, want-1)
		}
		b, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("append to table %s: %w", table, err)
		}
		enc[i] = b
	}
	return enc, nil
}

// write is one append, encoded and ready to run in a transaction.
type write struct {
	table  string
	events []roundtable.Event
	enc    [][]byte
	base   roundtable.Summary // the index entry the new one was computed from
	next   roundtable.Summary // the new index entry, computed from base
	enext  []byte             // next, encoded; nil when the stored entry stays
	snap   *snapWrite         // the snapshot, encoded; nil for none
	stored roundtable.Summary // the index entry the last run wrote
}

func (db *DB) prepare(table string, events []roundtable.Event, snap *roundtable.State) (*write, error) {
	enc, err := encodeEvents(table, events)
	if err != nil {
		return nil, err
	}
	w := &write{table: table, events: events, enc: enc}
	if w.base, err = db.index.get(db, table); err != nil {
		return nil, fmt.Errorf("append to table %s: %w", table, err)
	}
	w.next = roundtable.Summarize(w.base, events)
	if w.base.ID == "" || !sameButCount(w.base, w.next) {
		if w.enext, err = json.Marshal(w.next); err != nil {
			return nil, fmt.Errorf("encode index entry of table %s: %w", table, err)
		}
	}
	if snap != nil {
		if w.snap, err = db.prepareSnapshot(table, snap, enc[len(enc)-1]); err != nil {
			return nil, fmt.Errorf("append to table %s: %w", table, err)
		}
	}
	return w, nil
}

// run stores the events after the table's last one, its index entry and
// its snapshot.
func (w *write) run(tx *bolt.Tx) error {
	log, err := tx.Bucket(bucketTables).CreateBucketIfNotExists([]byte(w.table))
	if err != nil {
		return fmt.Errorf("create bucket of table %s: %w", w.table, err)
	}
	last := uint64(0)
	if k, _ := log.Cursor().Last(); k != nil {
		last = decodeSeq(k)
	}
	if w.events[0].Seq != last+1 {
		return roundtable.Errorf(roundtable.Conflict, "table %s: event seq %d does not follow %d", w.table, w.events[0].Seq, last)
	}
	log.FillPercent = appendFill
	if err := w.putIndex(tx, last); err != nil {
		return err
	}
	for i, b := range w.enc {
		if err := log.Put(encodeSeq(w.events[i].Seq), b); err != nil {
			return fmt.Errorf("put event %d: %w", w.events[i].Seq, err)
		}
	}
	if w.snap == nil {
		return nil
	}
	return w.snap.put(tx)
}

// putIndex writes the entry prepared outside the transaction when it was
// computed from the stored one (it was, unless another append to the table
// came between); otherwise it folds the events into the stored entry.
func (w *write) putIndex(tx *bolt.Tx, last uint64) error {
	if w.base.Events == last {
		w.stored = w.next
		if w.enext == nil {
			return nil
		}
		return putIndexEntry(tx, w.table, w.enext)
	}
	s, err := readIndexEntry(tx, w.table)
	if err != nil {
		return err
	}
	w.stored = roundtable.Summarize(s, w.events)
	b, err := json.Marshal(w.stored)
	if err != nil {
		return fmt.Errorf("encode index entry of table %s: %w", w.table, err)
	}
	return putIndexEntry(tx, w.table, b)
}

// Load implements roundtable.Store.
func (db *DB) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	return db.LoadFrom(ctx, table, 1)
}

// LoadFrom returns the table's events from Seq fromSeq on, in order: an
// empty list when fromSeq is past the last one, and an *roundtable.Error
// with code NotFound when the table has no events. When a damaged page
// stops the read, it returns the events before it with a
// *roundtable.DamageError naming the table.
func (db *DB) LoadFrom(ctx context.Context, table string, fromSeq uint64) ([]roundtable.Event, error) {
	if err := checkCtx(ctx, "load table "+table); err != nil {
		return nil, err
	}
	var raw [][]byte
	err := db.view(table, func(tx *bolt.Tx) error {
		log := tx.Bucket(bucketTables).Bucket([]byte(table))
		if log == nil {
			return roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
		}
		readFrom(log, fromSeq, &raw)
		return nil
	})
	switch {
	case roundtable.ErrorCode(err) == roundtable.NotFound:
		return nil, err
	case roundtable.DamagedTables(err) != nil:
		evs, _ := decodeEvents(table, raw)
		return evs, fmt.Errorf("load table %s: %w", table, err)
	case err != nil:
		return nil, fmt.Errorf("load table %s: %w", table, err)
	}
	return decodeEvents(table, raw)
}

func decodeEvents(table string, raw [][]byte) ([]roundtable.Event, error) {
	out := make([]roundtable.Event, len(raw))
	for i, b := range raw {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return out[:i], fmt.Errorf("load table %s: %w", table, err)
		}
	}
	return out, nil
}

func encodeSeq(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

func decodeSeq(k []byte) uint64 { return binary.BigEndian.Uint64(k) }
