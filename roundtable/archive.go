package roundtable

import (
	"context"
	"fmt"
)

// ArchiveStore is a SnapshotStore that keeps a snapshot's ended rounds
// apart from the rest of the state and reads them on demand (store.DB
// does). A table on such a store keeps in memory only the rounds the
// moderator still reads (the one in progress and the one before it) and
// those no snapshot holds yet; the others are stubs (State.Archived) that
// Table.Rounds, Table.Full and Table.View read back from the store. A
// live table then costs as much memory at round 100 as at round 3, and
// opening it reads neither its log nor its ended rounds. A wrapper of such
// a store that overrides LoadSnapshot must override LoadRecentSnapshot too
// (embedding passes the inner one through).
type ArchiveStore interface {
	SnapshotStore
	// LoadRecentSnapshot is LoadSnapshot with only the last keep of the
	// snapshot's ended rounds read; the earlier ones are stubs, counted in
	// State.Archived. A snapshot written before State.Past was kept is
	// read whole (Archived 0).
	LoadRecentSnapshot(ctx context.Context, table string, keep int) (snap *State, events []Event, err error)
	// LoadRounds returns the stored ended rounds from..to (1-based, both
	// included); the caller owns them. It returns an error naming the
	// first round that is not stored.
	LoadRounds(ctx context.Context, table string, from, to int) ([]RoundRecord, error)
}

// keepEnded is how many ended rounds a table on an ArchiveStore keeps in
// memory: the previous round, which the proposal phase's close reads.
const keepEnded = 1

// endedRounds is how many of s's rounds have ended: a snapshot of s
// stores that many (the rest are in its head).
func endedRounds(s *State) int { return min(max(s.Round-1, 0), len(s.Rounds)) }

// archive turns the ended rounds that the store holds and the moderator no
// longer reads into stubs; the caller holds t.mu.
func (t *Table) archive() {
	if _, ok := t.store.(ArchiveStore); !ok {
		return
	}
	s := t.state
	n := min(t.stored, endedRounds(s)-keepEnded)
	for i := s.Archived; i < n; i++ {
		s.Rounds[i] = RoundRecord{Round: i + 1}
	}
	s.Archived = max(s.Archived, n)
}

// loadArchived returns rounds from..to (1-based, both included) of t's
// state, reading the archived ones from the store; the caller holds t.mu
// and must not change what it gets (the rounds in memory are shared).
func (t *Table) loadArchived(ctx context.Context, from, to int) ([]RoundRecord, error) {
	s := t.state
	to = min(to, len(s.Rounds))
	if from > to {
		return nil, nil
	}
	out := make([]RoundRecord, 0, to-from+1)
	if from <= s.Archived {
		old, err := t.readArchived(ctx, from, min(to, s.Archived))
		if err != nil {
			return nil, err
		}
		out = append(out, old...)
		from = s.Archived + 1
	}
	if from > to {
		return out, nil
	}
	return append(out, s.Rounds[from-1:to]...), nil
}

// readArchived reads archived rounds from..to from the store, or, when
// the store cannot give them (a round lost or damaged in the file), from
// the log, which is the record: a snapshot is only a shortcut.
func (t *Table) readArchived(ctx context.Context, from, to int) ([]RoundRecord, error) {
	id := t.state.ID
	if as, ok := t.store.(ArchiveStore); ok {
		rs, err := as.LoadRounds(ctx, id, from, to)
		if err == nil || ctx.Err() != nil {
			return rs, err
		}
	}
	events, err := t.store.Load(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("table %s: read archived rounds %d-%d: %w", id, from, to, err)
	}
	s, err := Replay(events)
	if err != nil {
		return nil, fmt.Errorf("table %s: read archived rounds %d-%d: %w", id, from, to, err)
	}
	if len(s.Rounds) < to {
		return nil, fmt.Errorf("table %s: its log has %d rounds, not the archived %d", id, len(s.Rounds), to)
	}
	return s.Rounds[from-1 : to], nil
}

// Rounds returns a deep copy of the records of every round so far,
// those archived in the store included.
func (t *Table) Rounds(ctx context.Context) ([]RoundRecord, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rs, err := t.loadArchived(ctx, 1, len(t.state.Rounds))
	if err != nil {
		return nil, err
	}
	return cloneEach(rs, RoundRecord.clone), nil
}

// Full returns a deep copy of the current state with every round's record
// (Snapshot's archived rounds are stubs): what Replay of the log gives.
func (t *Table) Full(ctx context.Context) (*State, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.state.Clone()
	if c.Archived == 0 {
		return c, nil
	}
	old, err := t.loadArchived(ctx, 1, c.Archived)
	if err != nil {
		return nil, err
	}
	copy(c.Rounds, old)
	c.Archived = 0
	return c, nil
}
