package store

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Append implements roundtable.Store. The events are stored and the table's
// index entry updated in one transaction, fsynced before Append returns
// (unless Options.NoSync). Concurrent appends, to any tables, share
// transactions.
func (db *DB) Append(ctx context.Context, table string, events []roundtable.Event) error {
	if err := checkCtx(ctx, "append to table "+table); err != nil {
		return err
	}
	if len(events) == 0 {
		return nil
	}
	enc, err := encodeEvents(table, events)
	if err != nil {
		return err
	}
	// fn decides only from what is in the file, so it may run more than
	// once (Batch retries it alone when another call in its batch fails).
	fn := func(tx *bolt.Tx) error { return appendTx(tx, table, events, enc) }
	// A lone caller commits at once; only when other appends are in flight
	// does it join a batch, because a batch waits up to batchDelay for
	// company before it commits.
	if db.pending.Add(1) == 1 {
		err = db.bolt.Update(fn)
	} else {
		err = db.bolt.Batch(fn)
	}
	db.pending.Add(-1)
	if roundtable.ErrorCode(err) == roundtable.Conflict {
		return err
	}
	if err != nil {
		return fmt.Errorf("append %d events to table %s: %w", len(events), table, err)
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

// appendTx stores encoded events after the table's last one and folds them
// into its index entry.
func appendTx(tx *bolt.Tx, table string, events []roundtable.Event, enc [][]byte) error {
	log, err := tx.Bucket(bucketTables).CreateBucketIfNotExists([]byte(table))
	if err != nil {
		return fmt.Errorf("create bucket of table %s: %w", table, err)
	}
	last := uint64(0)
	if k, _ := log.Cursor().Last(); k != nil {
		last = decodeSeq(k)
	}
	if events[0].Seq != last+1 {
		return roundtable.Errorf(roundtable.Conflict, "table %s: event seq %d does not follow %d", table, events[0].Seq, last)
	}
	for i, b := range enc {
		if err := log.Put(encodeSeq(events[i].Seq), b); err != nil {
			return fmt.Errorf("put event %d: %w", events[i].Seq, err)
		}
	}
	return updateIndex(tx, table, events)
}

func updateIndex(tx *bolt.Tx, table string, events []roundtable.Event) error {
	index := tx.Bucket(bucketIndex)
	var s roundtable.Summary
	if b := index.Get([]byte(table)); b != nil {
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("decode index entry of table %s: %w", table, err)
		}
	}
	b, err := json.Marshal(roundtable.Summarize(s, events))
	if err != nil {
		return fmt.Errorf("encode index entry of table %s: %w", table, err)
	}
	if err := index.Put([]byte(table), b); err != nil {
		return fmt.Errorf("put index entry of table %s: %w", table, err)
	}
	return nil
}

// Load implements roundtable.Store.
func (db *DB) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	return db.LoadFrom(ctx, table, 1)
}

// LoadFrom returns the table's events from Seq fromSeq on, in order: an
// empty list when fromSeq is past the last one, and an *roundtable.Error
// with code NotFound when the table has no events.
func (db *DB) LoadFrom(ctx context.Context, table string, fromSeq uint64) ([]roundtable.Event, error) {
	if err := checkCtx(ctx, "load table "+table); err != nil {
		return nil, err
	}
	var raw [][]byte
	err := db.bolt.View(func(tx *bolt.Tx) error {
		log := tx.Bucket(bucketTables).Bucket([]byte(table))
		if log == nil {
			return roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
		}
		c := log.Cursor()
		for k, v := c.Seek(encodeSeq(fromSeq)); k != nil; k, v = c.Next() {
			raw = append(raw, bytes.Clone(v)) // v is valid only inside the tx
		}
		return nil
	})
	if err != nil {
		if roundtable.ErrorCode(err) == roundtable.NotFound {
			return nil, err
		}
		return nil, fmt.Errorf("load table %s: %w", table, err)
	}
	return decodeEvents(table, raw)
}

func decodeEvents(table string, raw [][]byte) ([]roundtable.Event, error) {
	out := make([]roundtable.Event, len(raw))
	for i, b := range raw {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return nil, fmt.Errorf("load table %s: %w", table, err)
		}
	}
	return out, nil
}

// Tables implements roundtable.Store: every table's summary, oldest first
// (by Created, then ID).
func (db *DB) Tables(ctx context.Context) ([]roundtable.Summary, error) {
	if err := checkCtx(ctx, "list tables"); err != nil {
		return nil, err
	}
	var out []roundtable.Summary
	err := db.bolt.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketIndex).ForEach(func(k, v []byte) error {
			var s roundtable.Summary
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("decode index entry of table %s: %w", k, err)
			}
			out = append(out, s)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	slices.SortFunc(out, func(a, b roundtable.Summary) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

func encodeSeq(seq uint64) []byte { return binary.BigEndian.AppendUint64(nil, seq) }

func decodeSeq(k []byte) uint64 { return binary.BigEndian.Uint64(k) }
