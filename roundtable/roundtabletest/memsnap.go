package roundtabletest

import (
	"context"
	"encoding/json"

	"github.com/roundtable-ai/roundtable/roundtable"
)

var _ roundtable.SnapshotStore = (*MemStore)(nil)

// memSnap is a table's latest snapshot, kept encoded as a real store keeps
// it: the rounds that had ended, each encoded once when it first appears
// in a snapshot (they never change), and the rest of the state.
type memSnap struct {
	rounds [][]byte // ended rounds, encoded; may run past done
	done   int      // ended rounds when the head was taken
	head   []byte   // the state without its first done rounds
}

// AppendSnapshot implements roundtable.SnapshotStore.
func (m *MemStore) AppendSnapshot(ctx context.Context, table string, events []roundtable.Event, snap *roundtable.State) error {
	if n := len(events); snap == nil || n == 0 || snap.Seq != events[n-1].Seq || snap.ID != table {
		return roundtable.Errorf(roundtable.Invalid, "table %s: the snapshot is not the state after the appended events", table)
	}
	if err := m.Append(ctx, table, events); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.snaps[table]
	next := memSnap{rounds: old.rounds, done: min(max(snap.Round-1, 0), len(snap.Rounds))}
	for r := len(next.rounds); r < next.done; r++ {
		b, err := json.Marshal(&snap.Rounds[r])
		if err != nil {
			return err
		}
		next.rounds = append(next.rounds, b)
	}
	head := *snap
	head.Rounds = snap.Rounds[next.done:]
	b, err := json.Marshal(&head)
	if err != nil {
		return err
	}
	next.head = b
	if m.snaps == nil {
		m.snaps = map[string]memSnap{}
	}
	m.snaps[table] = next
	return nil
}

// LoadSnapshot implements roundtable.SnapshotStore.
func (m *MemStore) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	m.mu.Lock()
	log, ok := m.logs[table]
	sn, hasSnap := m.snaps[table]
	m.mu.Unlock()
	if !ok {
		return nil, nil, roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
	}
	var snap *roundtable.State
	if hasSnap {
		var err error
		if snap, err = sn.decode(); err != nil {
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

func (sn memSnap) decode() (*roundtable.State, error) {
	var s roundtable.State
	if err := json.Unmarshal(sn.head, &s); err != nil {
		return nil, err
	}
	rounds := make([]roundtable.RoundRecord, sn.done, sn.done+len(s.Rounds))
	for i := range rounds {
		if err := json.Unmarshal(sn.rounds[i], &rounds[i]); err != nil {
			return nil, err
		}
	}
	if s.Rounds = append(rounds, s.Rounds...); len(s.Rounds) == 0 {
		s.Rounds = nil
	}
	return &s, nil
}
