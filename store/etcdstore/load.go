package etcdstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"go.etcd.io/etcd/api/v3/mvccpb"
	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// pageSize is how many keys a read takes per request: a long log is read
// in pages, all at the revision of the first.
const pageSize = 512

// readAttempts bounds the tries of a read whose revision etcd compacted
// away between its pages.
const readAttempts = 3

// rangeAt calls fn with every key in [from, end) at revision rev (0: the
// latest), in key order, and returns the revision it read at.
func (db *DB) rangeAt(ctx context.Context, from, end string, rev int64, fn func(kv *mvccpb.KeyValue) error) (int64, error) {
	for {
		resp, err := db.cli.Get(ctx, from, clientv3.WithRange(end), clientv3.WithRev(rev), clientv3.WithLimit(pageSize))
		if err != nil {
			return rev, err
		}
		if rev == 0 {
			rev = resp.Header.Revision
		}
		for _, kv := range resp.Kvs {
			if err := fn(kv); err != nil {
				return rev, err
			}
		}
		if !resp.More || len(resp.Kvs) == 0 {
			return rev, nil
		}
		from = string(resp.Kvs[len(resp.Kvs)-1].Key) + "\x00"
	}
}

// consistent runs read again, up to readAttempts times, when etcd
// compacted the revision it reads at.
func consistent(read func() error) error {
	var err error
	for range readAttempts {
		if err = read(); !errors.Is(err, rpctypes.ErrCompacted) {
			return err
		}
	}
	return err
}

// Load implements roundtable.Store.
func (db *DB) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	return db.LoadFrom(ctx, table, 1)
}

// LoadFrom returns the table's events from Seq fromSeq on, in order: an
// empty list when fromSeq is past the last one, and an *roundtable.Error
// with code NotFound when the table has no events. The head and the
// events are read at one revision.
func (db *DB) LoadFrom(ctx context.Context, table string, fromSeq uint64) ([]roundtable.Event, error) {
	if err := checkCtx(ctx, "load table "+table); err != nil {
		return nil, err
	}
	var raw [][]byte
	err := consistent(func() error {
		h, rev, err := db.headNow(ctx, table)
		if err != nil {
			return err
		}
		if h.rev == 0 {
			return roundtable.Errorf(roundtable.NotFound, "table %s not found", table)
		}
		raw, err = db.events(ctx, table, max(fromSeq, 1), h.seq(), rev)
		return err
	})
	if err != nil {
		if roundtable.ErrorCode(err) == roundtable.NotFound {
			return nil, err
		}
		return nil, fmt.Errorf("load table %s: %w", table, err)
	}
	return store.DecodeEvents(table, raw)
}

// events reads table's encoded events from..to (both included) at rev.
func (db *DB) events(ctx context.Context, table string, from, to uint64, rev int64) ([][]byte, error) {
	if from > to {
		return nil, nil
	}
	raw := make([][]byte, 0, to-from+1)
	_, err := db.rangeAt(ctx, db.keys.event(table, from), db.keys.event(table, to+1), rev, func(kv *mvccpb.KeyValue) error {
		if want := db.keys.event(table, from+uint64(len(raw))); string(kv.Key) != want {
			return fmt.Errorf("event %d is missing from the log", from+uint64(len(raw)))
		}
		raw = append(raw, kv.Value)
		return nil
	})
	if err == nil && uint64(len(raw)) != to-from+1 {
		err = fmt.Errorf("event %d is missing from the log", from+uint64(len(raw)))
	}
	return raw, err
}

// Tables implements roundtable.Store: every table's summary, oldest first
// (by Created, then ID), as of one revision.
func (db *DB) Tables(ctx context.Context) ([]roundtable.Summary, error) {
	if err := checkCtx(ctx, "list tables"); err != nil {
		return nil, err
	}
	var out []roundtable.Summary
	err := consistent(func() error {
		out = out[:0]
		all := db.keys.heads()
		_, err := db.rangeAt(ctx, all, clientv3.GetPrefixRangeEnd(all), 0, func(kv *mvccpb.KeyValue) error {
			h, err := decodeHead(string(kv.Key[len(all):]), kv)
			out = append(out, h.Summary)
			return err
		})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	slices.SortFunc(out, func(a, b roundtable.Summary) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}
