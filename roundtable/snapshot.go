package roundtable

import (
	"context"
	"fmt"
)

// SnapshotEvery is how often, in events, a table's state is snapshotted in
// a SnapshotStore: the append that reaches a multiple of it carries a
// snapshot, so opening a table replays fewer than SnapshotEvery events
// (plus one batch) after decoding its snapshot. 128 events are about six
// rounds of a five-seat table. A snapshot costs an encoding of the round in
// progress and of the rounds ended since the last one (stores keep ended
// rounds, which never change, once); the interval trades the replay on open
// against the snapshots' share of the appends.
const SnapshotEvery = 128

// SnapshotStore is an optional capability of a Store: it keeps the latest
// snapshot of each table's state beside its log, so that opening a table
// costs O(events since the snapshot) rather than O(log). Tables use it when
// their store implements it; logs without snapshots open as before.
type SnapshotStore interface {
	Store
	// AppendSnapshot is Append that also stores snap, the table's state
	// after the last of events, as the table's latest snapshot, in the same
	// transaction. The store does not keep snap past the call.
	AppendSnapshot(ctx context.Context, table string, events []Event, snap *State) error
	// LoadSnapshot returns the table's latest snapshot (the caller owns it)
	// and the events after it, read together; snap is nil, and events the
	// whole log, when the table has no snapshot. It returns an *Error with
	// code NotFound for a table that has no events, and an error when the
	// snapshot does not decode; callers then read the whole log with Load.
	LoadSnapshot(ctx context.Context, table string) (snap *State, events []Event, err error)
}

// OpenFunc rebuilds a stored table's moderator, decoding its log once:
// from its latest snapshot and the events after it when the store keeps
// snapshots, else from the whole log. task builds the table's task from
// its recorded configuration; its error is returned wrapped.
func OpenFunc(ctx context.Context, store Store, clock Clock, id string, task func(Config) (Task, error)) (*Table, error) {
	s, stored, err := loadState(ctx, store, id)
	if err != nil {
		return nil, fmt.Errorf("open table %s: %w", id, err)
	}
	tk, err := task(s.Config)
	if err != nil {
		return nil, fmt.Errorf("open table %s: %w", id, err)
	}
	return &Table{state: s, task: tk, store: store, clock: clock, stored: stored}, nil
}

// loadState rebuilds table id's state. A snapshot that is damaged, belongs
// to another table or does not fit the log is ignored: the whole log is
// the record, the snapshot only a shortcut. It also returns how many ended
// rounds the snapshot it used stores.
func loadState(ctx context.Context, store Store, id string) (*State, int, error) {
	if ss, ok := store.(SnapshotStore); ok {
		s, stored, err := fromSnapshot(ctx, ss, id)
		if err == nil || ErrorCode(err) == NotFound || ctx.Err() != nil {
			return s, stored, err
		}
	}
	events, err := store.Load(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	s, err := Replay(events)
	return s, 0, err
}

func fromSnapshot(ctx context.Context, ss SnapshotStore, id string) (*State, int, error) {
	var snap *State
	var tail []Event
	var err error
	if as, ok := ss.(ArchiveStore); ok {
		snap, tail, err = as.LoadRecentSnapshot(ctx, id, keepEnded)
	} else {
		snap, tail, err = ss.LoadSnapshot(ctx, id)
	}
	if err != nil {
		return nil, 0, err
	}
	if snap == nil {
		s, err := Replay(tail)
		return s, 0, err
	}
	if snap.ID != id || snap.Seq == 0 {
		return nil, 0, fmt.Errorf("snapshot of table %q at seq %d is not one of table %q", snap.ID, snap.Seq, id)
	}
	if snap.Archived > 0 && snap.Past == nil {
		return nil, 0, fmt.Errorf("snapshot of table %q at seq %d: rounds archived without their summary", id, snap.Seq)
	}
	// Rounds up to the archived ones are in the file; a store that read
	// them all (or a head that holds some ended rounds itself) promises no
	// more, so nothing is archived until the next snapshot stores them.
	stored := snap.Archived
	for _, e := range tail {
		if err := snap.Apply(e); err != nil {
			return nil, 0, fmt.Errorf("apply log to snapshot: %w", err)
		}
	}
	// A decoded state has slack in every slice and map (about twice the
	// memory of the history); a long-lived table keeps the exact copy, with
	// room for a few more rounds (growing the list would double it).
	s := snap.Clone()
	if len(s.Rounds) > 0 {
		s.Rounds = append(make([]RoundRecord, 0, len(s.Rounds)+4), s.Rounds...)
	}
	s.past()
	return s, stored, nil
}

// append records events that the state already holds, with a snapshot of
// the state when they reach a multiple of SnapshotEvery, and archives the
// rounds the store then holds that the moderator no longer reads.
func (t *Table) append(ctx context.Context, events []Event) error {
	if err := t.write(ctx, events); err != nil {
		return err
	}
	t.archive()
	return nil
}

func (t *Table) write(ctx context.Context, events []Event) error {
	ss, ok := t.store.(SnapshotStore)
	if !ok || len(events) == 0 {
		return t.store.Append(ctx, t.state.ID, events)
	}
	first, last := events[0].Seq, events[len(events)-1].Seq
	if (first-1)/SnapshotEvery == last/SnapshotEvery {
		return t.store.Append(ctx, t.state.ID, events)
	}
	if err := ss.AppendSnapshot(ctx, t.state.ID, events, t.state); err != nil {
		return err
	}
	t.stored = endedRounds(t.state)
	return nil
}
