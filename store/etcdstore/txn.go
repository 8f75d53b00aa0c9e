package etcdstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// Sizes of what a transaction carries besides keys and values, estimated
// from above: the encoding of an operation, and room for the comparisons
// and the request's own fields.
const (
	opOverhead     = 32
	requestSlack   = 4 << 10
	pendingReserve = 1 << 10 // the pending key's put or delete and its comparison
	headReserve    = 8 << 10 // a table's head and a snapshot's fixed part
)

// put is a key and value to write.
type put struct {
	key string
	val []byte
}

func (p put) size() int { return len(p.key) + len(p.val) + opOverhead }

func (p put) op() clientv3.Op { return clientv3.OpPut(p.key, string(p.val)) }

func sizeOf(ps []put) int {
	n := 0
	for _, p := range ps {
		n += p.size()
	}
	return n
}

// budget is how many bytes of operations one transaction may carry.
func (db *DB) budget() int { return db.opt.MaxRequestBytes - requestSlack }

// maxValue is the longest key and value an append writes: room is left
// for the table's head and the snapshot's in the same transaction.
func (db *DB) maxValue() int { return db.budget() - headReserve }

// partSize is the longest part of a snapshot state.
func (db *DB) partSize() int { return db.maxValue() / 2 }

// staleError is a write whose table head moved: head is the new one.
type staleError struct{ head head }

func (e *staleError) Error() string {
	return fmt.Sprintf("the head of table %s moved to seq %d", e.head.Summary.ID, e.head.seq())
}

// errTakenOver is a long append whose pending key another writer took.
var errTakenOver = errors.New("another writer took over the pending append")

// commit writes w, in one transaction when it fits in one, and returns
// the revision of the transaction that wrote the head.
func (db *DB) commit(ctx context.Context, w *write) (int64, error) {
	cmps := append([]clientv3.Cmp{clientv3.Compare(clientv3.ModRevision(db.keys.head(w.table)), "=", w.base.rev)}, db.guard(w.table)...)
	tail := db.snapshotDeletes(w)
	if len(w.data)+len(w.final)+len(tail) <= db.opt.MaxTxnOps && sizeOf(w.data)+sizeOf(w.final)+len(tail)*opOverhead <= db.budget() {
		ops := append(putOps(w.data), putOps(w.final)...)
		return db.txn(ctx, w, cmps, append(ops, tail...), "")
	}
	id, err := writerID()
	if err != nil {
		return 0, fmt.Errorf("append to table %s: %w", w.table, err)
	}
	pending := db.keys.pending(w.table)
	mine := append(slices.Clone(cmps), clientv3.Compare(clientv3.Value(pending), "=", id))
	tail = append(tail, clientv3.OpDelete(pending))
	chunks, last := db.split(w, len(tail))
	for i, c := range chunks {
		if i == 0 { // the first takes the pending key, the others check it
			_, err = db.txn(ctx, w, cmps, append(putOps(c), clientv3.OpPut(pending, id)), "")
		} else {
			_, err = db.txn(ctx, w, mine, putOps(c), id)
		}
		if err != nil {
			db.dropPending(ctx, pending, id)
			return 0, err
		}
	}
	ops := append(putOps(last), putOps(w.final)...)
	rev, err := db.txn(ctx, w, mine, append(ops, tail...), id)
	if err != nil {
		db.dropPending(ctx, pending, id)
	}
	return rev, err
}

// split cuts w's data into the transactions before the last, and the
// data the last carries beside the heads and reserved operations.
func (db *DB) split(w *write, reserved int) (chunks [][]put, last []put) {
	ops, bytes := len(w.final)+reserved, sizeOf(w.final)+pendingReserve
	k := len(w.data)
	for k > 0 && ops+1 <= db.opt.MaxTxnOps && bytes+w.data[k-1].size() <= db.budget() {
		k--
		ops, bytes = ops+1, bytes+w.data[k].size()
	}
	if k == 0 { // a long append has at least one transaction before its last
		k = 1
	}
	last = w.data[k:]
	var cur []put
	ops, bytes = 1, pendingReserve // the first puts the pending key; the others compare it
	for _, p := range w.data[:k] {
		if len(cur) > 0 && (ops+1 > db.opt.MaxTxnOps || bytes+p.size() > db.budget()) {
			chunks, cur, ops, bytes = append(chunks, cur), nil, 1, pendingReserve
		}
		cur, ops, bytes = append(cur, p), ops+1, bytes+p.size()
	}
	if len(cur) > 0 {
		chunks = append(chunks, cur)
	}
	return chunks, last
}

// txn runs one transaction of w's (of the long append id, if not empty).
// When its comparisons fail it tells why: the head moved (a *staleError),
// another writer took the pending key over (errTakenOver), or else
// Options.Guard refused (ErrFenced).
func (db *DB) txn(ctx context.Context, w *write, cmps []clientv3.Cmp, ops []clientv3.Op, id string) (int64, error) {
	resp, err := db.cli.Txn(ctx).If(cmps...).Then(ops...).
		Else(clientv3.OpGet(db.keys.head(w.table)), clientv3.OpGet(db.keys.pending(w.table))).Commit()
	if err != nil {
		return 0, fmt.Errorf("append to table %s: %w", w.table, err)
	}
	if resp.Succeeded {
		return resp.Header.Revision, nil
	}
	h, err := decodeHead(w.table, first(resp.Responses[0].GetResponseRange().Kvs))
	if err != nil {
		return 0, err
	}
	if h.rev != w.base.rev {
		return 0, &staleError{h}
	}
	if p := first(resp.Responses[1].GetResponseRange().Kvs); id != "" && (p == nil || string(p.Value) != id) {
		return 0, errTakenOver
	}
	if c := db.cluster.Load(); c != nil {
		c.fenced(w.table)
	}
	return 0, fenced(w.table)
}

// snapshotDeletes are the deletions of the parts of earlier snapshots of
// w's table (and of any left by failed writes of this one), which the
// transaction that writes its snapshot head runs.
func (db *DB) snapshotDeletes(w *write) []clientv3.Op {
	if !w.snap {
		return nil
	}
	all := db.keys.snapParts(w.table)
	if w.parts == 0 {
		return []clientv3.Op{clientv3.OpDelete(all, clientv3.WithPrefix())}
	}
	mine := db.keys.snapPartsAt(w.table, w.snapSeq)
	return []clientv3.Op{
		clientv3.OpDelete(all, clientv3.WithRange(mine)),
		clientv3.OpDelete(db.keys.snapPart(w.table, w.snapSeq, w.parts), clientv3.WithRange(clientv3.GetPrefixRangeEnd(mine))),
	}
}

// guard is the comparisons every write to table passes besides its head's:
// Options.Guard's, and, once the process joined a cluster, that it owns
// the table.
func (db *DB) guard(table string) []clientv3.Cmp {
	var cmps []clientv3.Cmp
	if db.opt.Guard != nil {
		cmps = db.opt.Guard(table)
	}
	if c := db.cluster.Load(); c != nil {
		cmps = append(cmps, c.guard(table))
	}
	return cmps
}

// dropPending deletes the pending key of a failed long append if it is
// still the writer's, so that it does not linger.
func (db *DB) dropPending(ctx context.Context, pending, id string) {
	if ctx.Err() != nil {
		return
	}
	_, _ = db.cli.Txn(ctx).If(clientv3.Compare(clientv3.Value(pending), "=", id)).Then(clientv3.OpDelete(pending)).Commit()
}

func putOps(ps []put) []clientv3.Op {
	out := make([]clientv3.Op, len(ps))
	for i, p := range ps {
		out[i] = p.op()
	}
	return out
}

// writerID names one long append in its pending key.
func writerID() (string, error) {
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
