package store

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// An index entry is rewritten only when an append changes more than its
// event count and time (Summary.Events and Updated): most events (messages,
// proposals, ballots) change nothing else, and leaving the entry as it is
// spares a put, and the pages it dirties, in their transactions. Readers
// take the count and time from the log's last event (readIndexEntry).

// indexCache keeps the index entries of tables that are being written, so
// that an append computes the next entry without reading and decoding the
// stored one inside its transaction. The transaction still checks that the
// entry it builds on is the stored one (by its event count) and falls back
// to the stored entry when not, so a stale cache costs time, never
// correctness. Entries of ended tables are dropped.
type indexCache struct {
	mu      sync.Mutex
	entries map[string]roundtable.Summary
}

// get returns table's index entry: the cached one, else the stored one
// (zero for a new table), read in its own read transaction.
func (c *indexCache) get(db *DB, table string) (roundtable.Summary, error) {
	c.mu.Lock()
	s, ok := c.entries[table]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	err := db.view(table, func(tx *bolt.Tx) error {
		var err error
		s, err = readIndexEntry(tx, table)
		return err
	})
	return s, err
}

// remember caches s unless a newer entry of its table is cached already.
func (c *indexCache) remember(table string, s roundtable.Summary) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s.Status == roundtable.StatusEnded {
		delete(c.entries, table)
		return
	}
	if old, ok := c.entries[table]; ok && old.Events >= s.Events {
		return
	}
	if c.entries == nil {
		c.entries = map[string]roundtable.Summary{}
	}
	c.entries[table] = s
}

// readIndexEntry returns table's index entry (zero for a table without
// one) with the count and time of the log's last event.
func readIndexEntry(tx *bolt.Tx, table string) (roundtable.Summary, error) {
	s, err := readStoredEntry(tx, table)
	if err != nil || s.ID == "" {
		return s, err
	}
	return withLastEvent(tx, table, s)
}

// readStoredEntry returns table's index entry as stored (zero for a table
// without one).
func readStoredEntry(tx *bolt.Tx, table string) (roundtable.Summary, error) {
	var s roundtable.Summary
	b := tx.Bucket(bucketIndex).Get([]byte(table))
	if b == nil {
		return s, nil
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("decode index entry of table %s: %w", table, err)
	}
	return s, nil
}

// withLastEvent returns s with the count and time of the last event of
// table's log.
func withLastEvent(tx *bolt.Tx, table string, s roundtable.Summary) (roundtable.Summary, error) {
	log := tx.Bucket(bucketTables).Bucket([]byte(table))
	if log == nil {
		return s, nil
	}
	k, v := log.Cursor().Last()
	if k == nil || decodeSeq(k) <= s.Events {
		return s, nil
	}
	var last struct {
		Time time.Time `json:"time"`
	}
	if err := json.Unmarshal(v, &last); err != nil {
		return s, fmt.Errorf("decode event %d of table %s: %w", decodeSeq(k), table, err)
	}
	s.Events, s.Updated = decodeSeq(k), last.Time
	return s, nil
}

// sameButCount reports whether a and b differ at most in Events and Updated.
func sameButCount(a, b roundtable.Summary) bool {
	a.Events, a.Updated = b.Events, b.Updated
	return a == b
}

func putIndexEntry(tx *bolt.Tx, table string, b []byte) error {
	if err := tx.Bucket(bucketIndex).Put([]byte(table), b); err != nil {
		return fmt.Errorf("put index entry of table %s: %w", table, err)
	}
	return nil
}
