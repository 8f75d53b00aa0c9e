package etcdstore

import (
	"bytes"
	"context"
	"fmt"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

var _ roundtable.ArchiveStore = (*DB)(nil)

// LoadSnapshot implements roundtable.SnapshotStore: the snapshot, its
// rounds and the events after it, read at one revision.
func (db *DB) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	return db.loadSnapshot(ctx, table, -1)
}

// LoadRecentSnapshot implements roundtable.ArchiveStore: LoadSnapshot
// reading only the last keep ended rounds.
func (db *DB) LoadRecentSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	s, events, err := db.loadSnapshot(ctx, table, max(keep, 0))
	if err == nil && s != nil && s.Archived > 0 && s.Past == nil { // written before Past: read it whole
		return db.loadSnapshot(ctx, table, -1)
	}
	return s, events, err
}

// loaded is a snapshot and the events after it, as read.
type loaded struct {
	snap   *roundtable.State
	events [][]byte
}

// loadSnapshot reads the snapshot with its last keep ended rounds (all
// when keep < 0) and the events after it.
func (db *DB) loadSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	if err := checkCtx(ctx, "load table "+table); err != nil {
		return nil, nil, err
	}
	var l loaded
	err := consistent(func() error {
		var err error
		l, err = db.readSnapshot(ctx, table, keep)
		return err
	})
	if err != nil {
		if roundtable.ErrorCode(err) == roundtable.NotFound {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("load table %s: %w", table, err)
	}
	events, err := store.DecodeEvents(table, l.events)
	if err != nil {
		return nil, nil, err
	}
	return l.snap, events, nil
}

func (db *DB) readSnapshot(ctx context.Context, table string, keep int) (loaded, error) {
	resp, err := db.cli.Txn(ctx).Then(clientv3.OpGet(db.keys.head(table)), clientv3.OpGet(db.keys.snap(table))).Commit()
	if err != nil {
		return loaded{}, err
	}
	rev := resp.Header.Revision
	h, err := decodeHead(table, first(resp.Responses[0].GetResponseRange().Kvs))
	if err != nil {
		return loaded{}, err
	}
	if h.rev == 0 {
		return loaded{}, roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
	}
	sv := first(resp.Responses[1].GetResponseRange().Kvs)
	if sv == nil {
		raw, err := db.events(ctx, table, 1, h.seq(), rev)
		return loaded{events: raw}, err
	}
	sh, err := store.ParseSnapshotHead(table, sv.Value)
	if err != nil {
		return loaded{}, err
	}
	if sh.Seq() > h.seq() || sh.Seq() == 0 {
		return loaded{}, fmt.Errorf("the snapshot of table %s is ahead of its log", table)
	}
	raw, err := db.events(ctx, table, sh.Seq(), h.seq(), rev)
	if err != nil {
		return loaded{}, err
	}
	if !sh.Fits(raw[0]) {
		return loaded{}, fmt.Errorf("the snapshot of table %s was not taken of its log (event %d differs)", table, sh.Seq())
	}
	var state []byte
	if sh.StateLen() == 0 {
		if state, err = db.snapshotParts(ctx, table, sh.Seq(), rev); err != nil {
			return loaded{}, err
		}
	}
	archived := 0
	if keep >= 0 {
		archived = max(sh.Done()-keep, 0)
	}
	var rounds [][]byte
	if sh.Done() > archived {
		if rounds, err = db.rounds(ctx, table, archived+1, sh.Done(), rev); err != nil {
			return loaded{}, fmt.Errorf("snapshot of table %s: %w", table, err)
		}
	}
	s, err := sh.State(table, state, archived, rounds)
	if err != nil {
		return loaded{}, err
	}
	return loaded{snap: s, events: raw[1:]}, nil
}

// snapshotParts reads the state of table's snapshot at seq, kept in parts.
func (db *DB) snapshotParts(ctx context.Context, table string, seq uint64, rev int64) ([]byte, error) {
	var state bytes.Buffer
	n := 0
	at := db.keys.snapPartsAt(table, seq)
	_, err := db.rangeAt(ctx, at, clientv3.GetPrefixRangeEnd(at), rev, func(kv *mvccpb.KeyValue) error {
		if string(kv.Key) != db.keys.snapPart(table, seq, n) {
			return fmt.Errorf("the snapshot of table %s misses part %d of its state", table, n)
		}
		n++
		state.Write(kv.Value)
		return nil
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("the snapshot of table %s has no state", table)
	}
	return state.Bytes(), err
}

// rounds reads table's stored rounds from..to (both included) at rev.
func (db *DB) rounds(ctx context.Context, table string, from, to int, rev int64) ([][]byte, error) {
	var out [][]byte
	_, err := db.rangeAt(ctx, db.keys.round(table, from), db.keys.round(table, to+1), rev, func(kv *mvccpb.KeyValue) error {
		if string(kv.Key) != db.keys.round(table, from+len(out)) {
			return errMissingRound(from+len(out), from, to)
		}
		out = append(out, kv.Value)
		return nil
	})
	if err == nil && len(out) < to-from+1 {
		err = errMissingRound(from+len(out), from, to)
	}
	return out, err
}

func errMissingRound(n, from, to int) error {
	return fmt.Errorf("round %d is not stored (rounds %d-%d asked)", n, from, to)
}

// LoadRounds implements roundtable.ArchiveStore. Only the rounds the
// table's head counts as stored are read: a long append's rounds are not
// until it commits.
func (db *DB) LoadRounds(ctx context.Context, table string, from, to int) ([]roundtable.RoundRecord, error) {
	if err := checkCtx(ctx, "load rounds of table "+table); err != nil {
		return nil, err
	}
	if from < 1 || to < from {
		return nil, roundtable.Errorf(roundtable.Invalid, "table %s: no rounds %d-%d", table, from, to)
	}
	var raw [][]byte
	err := consistent(func() error {
		h, rev, err := db.headNow(ctx, table)
		switch {
		case err != nil:
			return err
		case h.Rounds == 0:
			return roundtable.Errorf(roundtable.NotFound, "table %s has no stored rounds", table)
		case from > h.Rounds:
			return errMissingRound(from, from, to)
		}
		raw, err = db.rounds(ctx, table, from, min(to, h.Rounds), rev)
		if err == nil && to > h.Rounds {
			err = errMissingRound(h.Rounds+1, from, to)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load rounds %d-%d of table %s: %w", from, to, table, err)
	}
	out := make([]roundtable.RoundRecord, len(raw))
	for i, b := range raw {
		if out[i], err = store.DecodeRound(b, from+i); err != nil {
			return nil, fmt.Errorf("table %s: %w", table, err)
		}
	}
	return out, nil
}
