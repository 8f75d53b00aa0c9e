package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"

	"github.com/roundtable-ai/roundtable/store"
)

// Lock is a lock on a store held by this process through an etcd lease:
// a process that dies loses it when the lease expires.
type Lock struct {
	db      *DB
	session *concurrency.Session
	mutex   *concurrency.Mutex
}

// Lock takes the lock called name (serve takes "serve") for this
// process, for as long as the process renews its lease of ttl. Another
// process gets an error that matches store.ErrLocked until the holder
// unlocks it or its lease expires. While it is held, every write to a
// table also checks that the lock is still this process's: one that lost
// it (cut off from the cluster for longer than ttl) writes nothing more
// (ErrFenced).
func (db *DB) Lock(ctx context.Context, name string, ttl time.Duration) (*Lock, error) {
	s, err := concurrency.NewSession(db.cli, concurrency.WithTTL(max(int(ttl.Seconds()), 1)))
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", db, err)
	}
	m := concurrency.NewMutex(s, db.keys.lock(name))
	if err := m.TryLock(ctx); err != nil {
		err = errors.Join(err, s.Close())
		if errors.Is(err, concurrency.ErrLocked) {
			return nil, fmt.Errorf("%s: %w (it holds the lock %q)", db, store.ErrLocked, name)
		}
		return nil, fmt.Errorf("lock %s: %w", db, err)
	}
	l := &Lock{db: db, session: s, mutex: m}
	db.lock.Store(l)
	return l, nil
}

// Done is closed when the lock is lost: its lease expired or was revoked.
func (l *Lock) Done() <-chan struct{} { return l.session.Done() }

// Unlock releases the lock.
func (l *Lock) Unlock(ctx context.Context) error {
	l.db.lock.CompareAndSwap(l, nil)
	err := errors.Join(l.mutex.Unlock(ctx), l.session.Close())
	if err != nil {
		return fmt.Errorf("unlock %s: %w", l.db, err)
	}
	return nil
}

// owner is the comparison that the lock is still this process's.
func (l *Lock) owner() clientv3.Cmp { return l.mutex.IsOwner() }
