package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"go.etcd.io/etcd/api/v3/mvccpb"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// head is a table's head key: what every write to the table compares and
// writes again.
type head struct {
	Summary roundtable.Summary `json:"summary"` // Events is the last Seq
	// Rounds is how many ended rounds the latest snapshot stores apart:
	// round keys past it are not (yet) part of the table.
	Rounds int `json:"rounds,omitempty"`

	rev int64 // the key's mod revision; 0 when the table has none
}

func (h head) seq() uint64 { return h.Summary.Events }

// decodeHead reads a head key; nil kv is a table without one.
func decodeHead(table string, kv *mvccpb.KeyValue) (head, error) {
	var h head
	if kv == nil {
		return h, nil
	}
	if err := json.Unmarshal(kv.Value, &h); err != nil {
		return h, fmt.Errorf("decode head of table %s: %w", table, err)
	}
	h.rev = kv.ModRevision
	return h, nil
}

// first is the first of kvs, or nil.
func first(kvs []*mvccpb.KeyValue) *mvccpb.KeyValue {
	if len(kvs) == 0 {
		return nil
	}
	return kvs[0]
}

// readHead reads table's head from the cluster.
func (db *DB) readHead(ctx context.Context, table string) (head, error) {
	h, _, err := db.headNow(ctx, table)
	return h, err
}

// headNow reads table's head from the cluster, and returns the revision
// it read at, for reading the rest of the table as of the same moment.
func (db *DB) headNow(ctx context.Context, table string) (head, int64, error) {
	resp, err := db.cli.Get(ctx, db.keys.head(table))
	if err != nil {
		return head{}, 0, fmt.Errorf("read head of table %s: %w", table, err)
	}
	h, err := decodeHead(table, first(resp.Kvs))
	return h, resp.Header.Revision, err
}

// Head is where a table's log stands: its last Seq and the etcd revision
// of the write that put it there, which every later write compares.
type Head struct {
	Seq      uint64
	Revision int64
}

// Head returns table's head as the cluster has it now, or an
// *roundtable.Error with code NotFound when the table has no events.
func (db *DB) Head(ctx context.Context, table string) (Head, error) {
	if err := checkCtx(ctx, "read head of table "+table); err != nil {
		return Head{}, err
	}
	h, err := db.readHead(ctx, table)
	if err != nil {
		return Head{}, err
	}
	if h.rev == 0 {
		return Head{}, roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
	}
	return Head{Seq: h.seq(), Revision: h.rev}, nil
}

// HeadKey is the key of table's head, for comparisons of one's own.
func (db *DB) HeadKey(table string) string { return db.keys.head(table) }

// headCache keeps the heads of the tables this process writes, so that an
// append is one transaction: it compares the cached revision, and when
// another writer moved the head meanwhile the transaction fails and
// returns the new head, which the append retries from. Entries of ended
// tables are dropped.
type headCache struct {
	mu    sync.Mutex
	heads map[string]head
}

func (c *headCache) get(table string) (head, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.heads[table]
	return h, ok
}

// remember caches h unless a later head of its table is cached already.
func (c *headCache) remember(table string, h head) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if h.Summary.Status == roundtable.StatusEnded {
		delete(c.heads, table)
		return
	}
	if old, ok := c.heads[table]; ok && old.rev > h.rev {
		return
	}
	if c.heads == nil {
		c.heads = map[string]head{}
	}
	c.heads[table] = h
}
