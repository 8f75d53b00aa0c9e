// Package roundtabletest has fakes and conformance suites for the
// interfaces of package roundtable: an in-memory Store, a fake Clock, and
// StoreSuite, which every Store implementation must pass.
package roundtabletest

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// MemStore is an in-memory roundtable.Store and roundtable.SnapshotStore.
// Events and snapshots are stored encoded, so what comes back went through
// the same JSON round trip as with a real store.
type MemStore struct {
	mu      sync.Mutex
	logs    map[string][][]byte
	summary map[string]roundtable.Summary
	snaps   map[string]memSnap // latest snapshot per table, encoded
	// FailAppend, when set, is returned by Append instead of storing.
	FailAppend error
}

var _ roundtable.Store = (*MemStore)(nil)

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore {
	return &MemStore{logs: map[string][][]byte{}, summary: map[string]roundtable.Summary{}}
}

// Append implements roundtable.Store.
func (m *MemStore) Append(ctx context.Context, table string, events []roundtable.Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.FailAppend != nil {
		return m.FailAppend
	}
	log := m.logs[table]
	next := uint64(len(log)) + 1
	enc := make([][]byte, len(events))
	for i, e := range events {
		if e.Seq != next+uint64(i) || e.Table != table {
			return roundtable.Errorf(roundtable.Conflict, "table %s: event seq %d does not follow %d", table, e.Seq, next+uint64(i)-1)
		}
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		enc[i] = b
	}
	m.logs[table] = append(log, enc...)
	m.summary[table] = roundtable.Summarize(m.summary[table], events)
	return nil
}

// Load implements roundtable.Store.
func (m *MemStore) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	log, ok := m.logs[table]
	if !ok {
		return nil, roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
	}
	out := make([]roundtable.Event, len(log))
	for i, b := range log {
		if err := json.Unmarshal(b, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Tables implements roundtable.Store: oldest first (by Created, then ID).
func (m *MemStore) Tables(ctx context.Context) ([]roundtable.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]roundtable.Summary, 0, len(m.summary))
	for _, s := range m.summary {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b roundtable.Summary) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}
