package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Tables implements roundtable.Store: every table's summary, oldest first
// (by Created, then ID). Each table is read on its own, so a damaged page
// costs only the tables under it: they are named in a
// *roundtable.DamageError returned with the summaries of the others. A
// table whose index entry is damaged but whose log reads is listed with
// the summary of its log, and named too (writing to it would meet the
// damage).
func (db *DB) Tables(ctx context.Context) ([]roundtable.Summary, error) {
	if err := checkCtx(ctx, "list tables"); err != nil {
		return nil, err
	}
	var out []roundtable.Summary
	bad := map[string]error{}
	var fileErr error
	err := db.view("", func(tx *bolt.Tx) error {
		var ids []string
		ids, fileErr = tableIDs(tx)
		for _, id := range ids {
			s, err := summary(tx, id)
			if err != nil {
				bad[id] = err
			}
			if s.ID != "" {
				out = append(out, s)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	slices.SortFunc(out, func(a, b roundtable.Summary) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	if len(bad) > 0 || fileErr != nil {
		return out, &roundtable.DamageError{File: db.path, Tables: bad, Err: fileErr}
	}
	return out, nil
}

// tableIDs lists the tables of the index and of the logs: either may be
// damaged where the other is not. The error reports which list a damaged
// page cut short.
func tableIDs(tx *bolt.Tx) ([]string, error) {
	var ids []string
	var errs []error
	for _, name := range [][]byte{bucketIndex, bucketTables} {
		err := catch(func() error {
			return tx.Bucket(name).ForEach(func(k, _ []byte) error {
				ids = append(ids, string(k))
				return nil
			})
		})
		if err != nil {
			errs = append(errs, fmt.Errorf("the list of tables in bucket %s: %w", name, err))
		}
	}
	slices.Sort(ids)
	var err error
	if len(errs) > 0 {
		err = errs[0]
	}
	if len(errs) > 1 {
		err = fmt.Errorf("%w; %w", errs[0], errs[1])
	}
	return slices.Compact(ids), err
}

// summary returns table id's summary: its index entry brought up to its
// log's last event. When a damaged page is met on the way it returns what
// it read, the entry as stored or else the summary of the log, with the
// error.
func summary(tx *bolt.Tx, id string) (roundtable.Summary, error) {
	var stored roundtable.Summary
	ierr := catch(func() (err error) {
		stored, err = readStoredEntry(tx, id)
		return err
	})
	if ierr == nil && stored.ID != "" {
		s := stored
		err := catch(func() (err error) {
			s, err = withLastEvent(tx, id, stored)
			return err
		})
		if err != nil {
			return stored, fmt.Errorf("log: %w (listed from its index entry)", err)
		}
		return s, nil
	}
	var logged roundtable.Summary
	lerr := catch(func() (err error) {
		logged, err = summarizeLog(tx, id)
		return err
	})
	switch {
	case lerr != nil && ierr != nil:
		return logged, fmt.Errorf("index entry: %w; log: %w", ierr, lerr)
	case lerr != nil:
		return logged, fmt.Errorf("log: %w", lerr)
	case ierr != nil:
		return logged, fmt.Errorf("index entry: %w (listed from its log)", ierr)
	}
	return logged, nil
}

// summarizeLog folds table id's log into its summary (zero when it has no
// log).
func summarizeLog(tx *bolt.Tx, id string) (roundtable.Summary, error) {
	log := tx.Bucket(bucketTables).Bucket([]byte(id))
	if log == nil {
		return roundtable.Summary{}, nil
	}
	var raw [][]byte
	readFrom(log, 1, &raw)
	evs, err := decodeEvents(id, raw)
	if err != nil {
		return roundtable.Summary{}, err
	}
	return roundtable.Summarize(roundtable.Summary{}, evs), nil
}
