package etcdstore

import (
	"context"
	"encoding/json"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// PutRawSnapshot stores v as table's snapshot head as it is, for tests of
// damaged snapshots.
func (db *DB) PutRawSnapshot(table string, v []byte) error {
	_, err := db.cli.Put(context.Background(), db.keys.snap(table), string(v))
	return err
}

// DeleteSnapshotRound removes ended round r of table's snapshot.
func (db *DB) DeleteSnapshotRound(table string, r int) error {
	_, err := db.cli.Delete(context.Background(), db.keys.round(table, r))
	return err
}

// DropSnapshots removes every snapshot and stored round, and makes every
// head say so, as in a store that never kept snapshots.
func (db *DB) DropSnapshots() error {
	ctx := context.Background()
	for _, p := range []string{"snap/", "snappart/", "round/"} {
		if _, err := db.cli.Delete(ctx, db.keys.prefix+p, clientv3.WithPrefix()); err != nil {
			return err
		}
	}
	resp, err := db.cli.Get(ctx, db.keys.heads(), clientv3.WithPrefix())
	if err != nil {
		return err
	}
	for _, kv := range resp.Kvs {
		h, err := decodeHead(string(kv.Key), kv)
		if err != nil {
			return err
		}
		h.Rounds = 0
		b, err := json.Marshal(h)
		if err != nil {
			return err
		}
		if _, err := db.cli.Put(ctx, string(kv.Key), string(b)); err != nil {
			return err
		}
	}
	return nil
}

// Lease is the lease the member holds now (0 without one).
func (c *Cluster) Lease() clientv3.LeaseID {
	if s := c.session(); s != nil {
		return s.Lease()
	}
	return 0
}
