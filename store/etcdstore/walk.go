package etcdstore

import (
	"context"
	"fmt"
	"slices"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Bindings implements store.Walker.
func (db *DB) Bindings(ctx context.Context, fn func(key, table string) error) error {
	if err := checkCtx(ctx, "list bindings"); err != nil {
		return err
	}
	root := db.keys.bindings()
	_, err := db.rangeAt(ctx, root, clientv3.GetPrefixRangeEnd(root), 0, func(kv *mvccpb.KeyValue) error {
		return fn(string(kv.Key[len(root):]), string(kv.Value))
	})
	if err != nil {
		return fmt.Errorf("list bindings: %w", err)
	}
	return nil
}

// BlobNamespaces implements store.Walker.
func (db *DB) BlobNamespaces(ctx context.Context) ([]string, error) {
	out, err := db.names(ctx, db.keys.blobRoot())
	if err != nil {
		return nil, fmt.Errorf("list blob namespaces: %w", err)
	}
	return out, nil
}

// AnnotatedTables implements store.Walker.
func (db *DB) AnnotatedTables(ctx context.Context) ([]string, error) {
	out, err := db.names(ctx, db.keys.annRoot())
	if err != nil {
		return nil, fmt.Errorf("list annotated tables: %w", err)
	}
	return out, nil
}

// names lists the names under root (root/<name>/...), sorted, reading one
// key per name: after each, it skips past the name's keys.
func (db *DB) names(ctx context.Context, root string) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []string
	from, end := root, clientv3.GetPrefixRangeEnd(root)
	for {
		resp, err := db.cli.Get(ctx, from, clientv3.WithRange(end), clientv3.WithKeysOnly(), clientv3.WithLimit(1))
		if err != nil {
			return nil, err
		}
		kv := first(resp.Kvs)
		if kv == nil {
			break
		}
		name, escaped, err := firstName(string(kv.Key[len(root):]))
		if err != nil {
			return nil, err
		}
		out = append(out, name)
		from = clientv3.GetPrefixRangeEnd(root + escaped + "/")
	}
	slices.Sort(out)
	return out, nil
}
