package etcdstore

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Bind maps a chat location (key, such as "discord:<channelID>") to a
// table, replacing any earlier binding of key.
func (db *DB) Bind(ctx context.Context, key, table string) error {
	if err := db.checkWrite(ctx, "bind "+key); err != nil {
		return err
	}
	if key == "" || table == "" {
		return roundtable.Errorf(roundtable.Invalid, "binding needs a key and a table (got %q → %q)", key, table)
	}
	if _, err := db.cli.Put(ctx, db.keys.binding(key), table); err != nil {
		return fmt.Errorf("bind %s to table %s: %w", key, table, err)
	}
	return nil
}

// Lookup returns the table bound to key, and whether there is one.
func (db *DB) Lookup(ctx context.Context, key string) (table string, ok bool, err error) {
	v, ok, err := db.get(ctx, "look up "+key, db.keys.binding(key))
	return string(v), ok, err
}

// Unbind removes key's binding; removing an absent one is not an error.
func (db *DB) Unbind(ctx context.Context, key string) error {
	return db.delete(ctx, "unbind "+key, db.keys.binding(key))
}

// PutBlob stores v under key in namespace ns, for adapter bookkeeping
// such as the IDs of posted messages.
func (db *DB) PutBlob(ctx context.Context, ns, key string, v []byte) error {
	return db.AddBlob(ctx, ns, key, v)
}

// AddBlob stores v under key in namespace ns; it returns once v is
// durable in the cluster.
func (db *DB) AddBlob(ctx context.Context, ns, key string, v []byte) error {
	if err := db.checkWrite(ctx, "put blob "+ns+"/"+key); err != nil {
		return err
	}
	if err := checkRecord(ns, key); err != nil {
		return err
	}
	if _, err := db.cli.Put(ctx, db.keys.blob(ns, key), string(v)); err != nil {
		return fmt.Errorf("put blob %s/%s: %w", ns, key, err)
	}
	return nil
}

// FirstBlob stores v under key in namespace ns unless the key holds a
// value already, and returns the value the key holds then: processes that
// start together agree on one (the key that signs the web channel's
// links, made by whichever process starts first).
func (db *DB) FirstBlob(ctx context.Context, ns, key string, v []byte) ([]byte, error) {
	if err := db.checkWrite(ctx, "put blob "+ns+"/"+key); err != nil {
		return nil, err
	}
	if err := checkRecord(ns, key); err != nil {
		return nil, err
	}
	k := db.keys.blob(ns, key)
	resp, err := db.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
		Then(clientv3.OpPut(k, string(v))).Else(clientv3.OpGet(k)).Commit()
	if err != nil {
		return nil, fmt.Errorf("put blob %s/%s: %w", ns, key, err)
	}
	if kv := first(resp.Responses[0].GetResponseRange().GetKvs()); !resp.Succeeded && kv != nil {
		return kv.Value, nil
	}
	return v, nil
}

// checkRecord refuses a blob without a namespace or a key.
func checkRecord(ns, key string) error {
	if ns == "" || key == "" {
		return roundtable.Errorf(roundtable.Invalid, "blob needs a namespace and a key (got %q, %q)", ns, key)
	}
	return nil
}

// GetBlob returns the value under key in namespace ns, and whether there
// is one.
func (db *DB) GetBlob(ctx context.Context, ns, key string) (v []byte, ok bool, err error) {
	return db.get(ctx, "get blob "+ns+"/"+key, db.keys.blob(ns, key))
}

// PutBlobs stores every key and value of kv in namespace ns: in one
// transaction when they fit in one, else in several.
func (db *DB) PutBlobs(ctx context.Context, ns string, kv map[string][]byte) error {
	if err := db.checkWrite(ctx, "put blobs "+ns); err != nil {
		return err
	}
	if ns == "" {
		return roundtable.Errorf(roundtable.Invalid, "blobs need a namespace")
	}
	ps := make([]put, 0, len(kv))
	for _, k := range slices.Sorted(maps.Keys(kv)) {
		if k == "" {
			return roundtable.Errorf(roundtable.Invalid, "blob in %s has an empty key", ns)
		}
		ps = append(ps, put{db.keys.blob(ns, k), kv[k]})
	}
	if err := db.putAll(ctx, ps); err != nil {
		return fmt.Errorf("put %d blobs in %s: %w", len(kv), ns, err)
	}
	return nil
}

// AddBlobs stores records of any namespaces, in order: in one transaction
// when they fit in one, else in several, each durable before the next.
func (db *DB) AddBlobs(ctx context.Context, recs []roundtable.Blob) error {
	if err := db.checkWrite(ctx, "add blobs"); err != nil {
		return err
	}
	ps := make([]put, len(recs))
	for i, r := range recs {
		if err := checkRecord(r.NS, r.Key); err != nil {
			return err
		}
		ps[i] = put{db.keys.blob(r.NS, r.Key), r.Value}
	}
	if err := db.putAll(ctx, ps); err != nil {
		return fmt.Errorf("add %d blobs: %w", len(recs), err)
	}
	return nil
}

// Blobs returns the keys and values in namespace ns whose keys start with
// prefix (every one for an empty prefix).
func (db *DB) Blobs(ctx context.Context, ns, prefix string) (map[string][]byte, error) {
	end := ""
	if prefix != "" {
		end = clientv3.GetPrefixRangeEnd(prefix)
	}
	if end == "\x00" { // the prefix is all 0xff: no key comes after its keys
		end = ""
	}
	return db.BlobRanges(ctx, ns, [][2]string{{prefix, end}})
}

// BlobRanges returns the keys and values of namespace ns in any of the
// ranges, read at one revision. A range is the keys from its first string
// (included) to its second (excluded; empty: no end).
func (db *DB) BlobRanges(ctx context.Context, ns string, ranges [][2]string) (map[string][]byte, error) {
	if err := checkCtx(ctx, "list blobs "+ns); err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	root := db.keys.blobs(ns)
	err := consistent(func() error {
		clear(out)
		rev := int64(0)
		for _, r := range ranges {
			end := root + r[1]
			if r[1] == "" {
				end = clientv3.GetPrefixRangeEnd(root)
			}
			var err error
			rev, err = db.rangeAt(ctx, root+r[0], end, rev, func(kv *mvccpb.KeyValue) error {
				out[string(kv.Key[len(root):])] = kv.Value
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list blobs %s: %w", ns, err)
	}
	return out, nil
}

// EachBlob calls fn with every key and value of namespace ns, in key
// order (bytewise), as of one revision. An error from fn stops the walk
// and is returned.
func (db *DB) EachBlob(ctx context.Context, ns string, fn func(key string, v []byte) error) error {
	if err := checkCtx(ctx, "read blobs "+ns); err != nil {
		return err
	}
	root := db.keys.blobs(ns)
	_, err := db.rangeAt(ctx, root, clientv3.GetPrefixRangeEnd(root), 0, func(kv *mvccpb.KeyValue) error {
		return fn(string(kv.Key[len(root):]), kv.Value)
	})
	if err != nil {
		return fmt.Errorf("read blobs %s: %w", ns, err)
	}
	return nil
}

// DeleteBlob removes key from namespace ns; removing an absent key is not
// an error.
func (db *DB) DeleteBlob(ctx context.Context, ns, key string) error {
	return db.delete(ctx, "delete blob "+ns+"/"+key, db.keys.blob(ns, key))
}

// DropBlobs removes namespace ns and everything in it; dropping an absent
// namespace is not an error.
func (db *DB) DropBlobs(ctx context.Context, ns string) error {
	if err := db.checkWrite(ctx, "drop blobs "+ns); err != nil {
		return err
	}
	if _, err := db.cli.Delete(ctx, db.keys.blobs(ns), clientv3.WithPrefix()); err != nil {
		return fmt.Errorf("drop blobs %s: %w", ns, err)
	}
	return nil
}

// get reads one key's value.
func (db *DB) get(ctx context.Context, op, key string) ([]byte, bool, error) {
	if err := checkCtx(ctx, op); err != nil {
		return nil, false, err
	}
	resp, err := db.cli.Get(ctx, key)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", op, err)
	}
	if kv := first(resp.Kvs); kv != nil {
		return kv.Value, true, nil
	}
	return nil, false, nil
}

// delete removes one key.
func (db *DB) delete(ctx context.Context, op, key string) error {
	if err := db.checkWrite(ctx, op); err != nil {
		return err
	}
	if _, err := db.cli.Delete(ctx, key); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// putAll writes ps in order, as few transactions as the limits allow.
func (db *DB) putAll(ctx context.Context, ps []put) error {
	for len(ps) > 0 {
		n, bytes := 0, 0
		for n < len(ps) && n < db.opt.MaxTxnOps && (n == 0 || bytes+ps[n].size() <= db.budget()) {
			bytes += ps[n].size()
			n++
		}
		if bytes > db.budget() {
			return fmt.Errorf("%s is %d bytes, more than an etcd transaction takes (max %d)", ps[0].key, len(ps[0].val), db.opt.MaxRequestBytes)
		}
		if _, err := db.cli.Txn(ctx).Then(putOps(ps[:n])...).Commit(); err != nil {
			return err
		}
		ps = ps[n:]
	}
	return nil
}
