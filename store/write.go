package store

import bolt "go.etcd.io/bbolt"

// write runs fn in a read-write transaction, committed and fsynced before
// it returns: at once when no other write is in flight, else in a batch
// shared with the writes that are (one fsync for all). Bindings and blobs
// go this way, so that many tables starting at once, each binding its
// thread and recording its posts, do not queue for one fsync each. fn
// may run more than once (Batch retries it alone when another call of its
// batch fails), so it must decide only from what is in the file. table
// names the table fn writes ("" for none), for the error of a damaged
// page.
func (db *DB) write(table string, fn func(*bolt.Tx) error) error {
	defer db.pending.Add(-1)
	if db.pending.Add(1) == 1 {
		return db.update(table, fn)
	}
	return db.batch(table, fn)
}
