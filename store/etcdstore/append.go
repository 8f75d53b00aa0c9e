package etcdstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// appendAttempts bounds the tries of an append that other writers keep
// overtaking while its events still follow the log.
const appendAttempts = 8

// Append implements roundtable.Store: the events and the table's head in
// one transaction (or several, see the package doc) compared against the
// head this process last saw.
func (db *DB) Append(ctx context.Context, table string, events []roundtable.Event) error {
	return db.append(ctx, table, events, nil)
}

// AppendSnapshot implements roundtable.SnapshotStore: Append, and in the
// same transaction snap replaces the table's snapshot, with the ended
// rounds it does not store yet.
func (db *DB) AppendSnapshot(ctx context.Context, table string, events []roundtable.Event, snap *roundtable.State) error {
	if err := store.CheckSnapshot(table, events, snap); err != nil {
		return err
	}
	return db.append(ctx, table, events, snap)
}

func (db *DB) append(ctx context.Context, table string, events []roundtable.Event, snap *roundtable.State) error {
	if err := db.checkWrite(ctx, "append to table "+table); err != nil {
		return err
	}
	if len(events) == 0 {
		return nil
	}
	enc, err := store.EncodeEvents(table, events)
	if err != nil {
		return err
	}
	// base is the head the next try builds on: cached (it may be behind
	// the cluster), fresh from the cluster, or none yet.
	base, cached := db.heads.get(table)
	fresh := false
	for try := range appendAttempts {
		if !cached && !fresh {
			if base, err = db.readHead(ctx, table); err != nil {
				if retriable(ctx, err) && try < appendAttempts-1 && sleep(ctx, min(50*time.Millisecond<<try, time.Second)) {
					continue
				}
				return fmt.Errorf("append to table %s: %w", table, err)
			}
			fresh = true
		}
		if events[0].Seq != base.seq()+1 {
			if !fresh { // the cache may be behind: ask the cluster
				cached = false
				continue
			}
			landed, err := db.landed(ctx, table, events, enc, base)
			if err != nil {
				return err
			}
			if landed {
				db.heads.remember(table, base)
				return nil
			}
			return conflict(table, events[0].Seq, base.seq())
		}
		w, err := db.prepare(table, base, events, enc, snap)
		if err != nil {
			return err
		}
		rev, err := db.commit(ctx, w)
		var stale *staleError
		switch {
		case err == nil:
			w.next.rev = rev
			db.heads.remember(table, w.next)
			return nil
		case errors.As(err, &stale):
			base, fresh = stale.head, true
		case errors.Is(err, errTakenOver):
			cached, fresh = false, false
		case retriable(ctx, err) && try < appendAttempts-1 && sleep(ctx, min(50*time.Millisecond<<try, time.Second)):
			cached, fresh = false, false // the head read again says whether it landed
		default:
			return err
		}
	}
	return roundtable.Errorf(roundtable.Conflict, "table %s: other writers kept moving its head; %d attempts to append event %d failed", table, appendAttempts, events[0].Seq)
}

// transient reports whether err is etcd's for a request it could not
// serve in time (a member overloaded, an election): its outcome is
// unknown, and the append is tried again, which lands it once (landed).
func transient(err error) bool {
	for _, e := range []error{rpctypes.ErrTimeout, rpctypes.ErrTimeoutDueToLeaderFail, rpctypes.ErrTimeoutDueToConnectionLost,
		rpctypes.ErrTimeoutWaitAppliedIndex, rpctypes.ErrLeaderChanged, rpctypes.ErrNoLeader, rpctypes.ErrTooManyRequests} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// retriable reports whether err leaves a request's outcome unknown in a
// way that trying again may mend: etcd's timeouts and elections, or the
// request's own deadline (requestTimeout) while ctx lives.
func retriable(ctx context.Context, err error) bool { return transient(err) || timedOut(ctx, err) }

// landed reports whether the log already holds events exactly as enc
// encodes them: an append retried after an error that left its outcome
// unknown (a connection lost before the reply) succeeds once, not twice.
func (db *DB) landed(ctx context.Context, table string, events []roundtable.Event, enc [][]byte, h head) (bool, error) {
	from, to := events[0].Seq, events[len(events)-1].Seq
	if from == 0 || to > h.seq() {
		return false, nil
	}
	resp, err := db.cli.Get(ctx, db.keys.event(table, from), clientv3.WithRange(db.keys.event(table, to+1)))
	if err != nil {
		return false, fmt.Errorf("append to table %s: %w", table, err)
	}
	if len(resp.Kvs) != len(enc) {
		return false, nil
	}
	for i, kv := range resp.Kvs {
		if !bytes.Equal(kv.Value, enc[i]) {
			return false, nil
		}
	}
	return true, nil
}

// write is an append planned as puts: data (events, ended rounds, parts of
// a long snapshot state) in order, then the snapshot's head and the
// table's head, which make the data part of the table.
type write struct {
	table string
	base  head // compared: the write applies to this head only
	next  head // written
	data  []put
	final []put
	// snapSeq and parts describe the snapshot written, if any: the
	// transaction that writes its head deletes the other parts.
	snap    bool
	snapSeq uint64
	parts   int
}

func (db *DB) prepare(table string, base head, events []roundtable.Event, enc [][]byte, snap *roundtable.State) (*write, error) {
	w := &write{table: table, base: base, next: head{Summary: roundtable.Summarize(base.Summary, events), Rounds: base.Rounds}}
	for i, b := range enc {
		p := put{db.keys.event(table, events[i].Seq), b}
		if p.size() > db.maxValue() {
			return nil, roundtable.Errorf(roundtable.Invalid, "table %s: event %d is %d bytes, more than an etcd transaction takes (max %d; see etcd's --max-request-bytes)",
				table, events[i].Seq, len(b), db.opt.MaxRequestBytes)
		}
		w.data = append(w.data, p)
	}
	if snap != nil {
		if err := db.prepareSnapshot(w, snap, enc[len(enc)-1]); err != nil {
			return nil, fmt.Errorf("append to table %s: %w", table, err)
		}
	}
	hb, err := json.Marshal(w.next)
	if err != nil {
		return nil, fmt.Errorf("encode head of table %s: %w", table, err)
	}
	w.final = append(w.final, put{db.keys.head(table), hb})
	return w, nil
}

// prepareSnapshot adds snap, the state after the event encoded as last, to
// w: the ended rounds the store does not hold yet, and its head, split
// into parts when it is too long for one transaction. A snapshot with an
// ended round too long for a transaction is left out: the table's rounds
// are then read from its log, which is the record.
func (db *DB) prepareSnapshot(w *write, snap *roundtable.State, last []byte) error {
	done := min(max(snap.Round-1, 0), len(snap.Rounds))
	from := min(w.base.Rounds, done)
	if from < snap.Archived {
		return fmt.Errorf("snapshot: rounds %d-%d are archived but only %d are stored", from+1, snap.Archived, from)
	}
	rounds, err := store.EncodeRounds(snap.Rounds[from:done])
	if err != nil {
		return err
	}
	ps := make([]put, len(rounds))
	for i, b := range rounds {
		if ps[i] = (put{db.keys.round(w.table, from+i+1), b}); ps[i].size() > db.maxValue() {
			return nil
		}
	}
	w.data = append(w.data, ps...)
	hb, err := store.EncodeSnapshotHead(snap, done, last)
	if err != nil {
		return err
	}
	w.snap, w.snapSeq, w.next.Rounds = true, snap.Seq, done
	if size := db.partSize(); len(hb) > size {
		fixed, state := hb[:store.SnapshotHeadLen], hb[store.SnapshotHeadLen:]
		for ; len(state) > 0; w.parts++ {
			n := min(len(state), size)
			w.data = append(w.data, put{db.keys.snapPart(w.table, snap.Seq, w.parts), state[:n]})
			state = state[n:]
		}
		hb = fixed
	}
	w.final = append(w.final, put{db.keys.snap(w.table), hb})
	return nil
}
