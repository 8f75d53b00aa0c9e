package roundtabletest

import (
	"context"
	"encoding/json"

	"github.com/roundtable-ai/roundtable/roundtable"
)

var _ roundtable.SnapshotStore = (*MemStore)(nil)

// AppendSnapshot implements roundtable.SnapshotStore: the snapshot is kept
// encoded, like the events.
func (m *MemStore) AppendSnapshot(ctx context.Context, table string, events []roundtable.Event, snap *roundtable.State) error {
	if n := len(events); snap == nil || n == 0 || snap.Seq != events[n-1].Seq || snap.ID != table {
		return roundtable.Errorf(roundtable.Invalid, "table %s: the snapshot is not the state after the appended events", table)
	}
	b, err := json.Marshal(snap)
	if err != nil {
		return err
	}
	if err := m.Append(ctx, table, events); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.snaps == nil {
		m.snaps = map[string][]byte{}
	}
	m.snaps[table] = b
	return nil
}

// LoadSnapshot implements roundtable.SnapshotStore.
func (m *MemStore) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	log, ok := m.logs[table]
	b := m.snaps[table]
	m.mu.Unlock()
	if !ok {
		return nil, nil, roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
	}
	var snap *roundtable.State
	if b != nil {
		snap = &roundtable.State{}
		if err := json.Unmarshal(b, snap); err != nil {
			return nil, nil, err
		}
	}
	from := 0
	if snap != nil {
		from = int(snap.Seq)
	}
	events := make([]roundtable.Event, len(log)-from)
	for i, raw := range log[from:] {
		if err := json.Unmarshal(raw, &events[i]); err != nil {
			return nil, nil, err
		}
	}
	return snap, events, nil
}
