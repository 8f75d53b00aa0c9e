package main

import (
	"context"
	"fmt"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/store"
	"github.com/roundtable-ai/roundtable/store/etcdstore"
)

// cluster is serve's membership in the processes that share an etcd
// store: the bot's Owners (which tables this process serves), and the
// units Discord's shards are held by.
type cluster struct {
	c       *etcdstore.Cluster
	changes chan bot.OwnerChange
	stop    context.CancelFunc
	done    chan struct{}
}

var _ bot.Owners = (*cluster)(nil)

// joinCluster joins the cluster of an etcd store; a file has none (nil:
// this process serves every table).
func (a *App) joinCluster(ctx context.Context, cfg Config, db store.Backend) (*cluster, error) {
	e, ok := db.(*etcdstore.DB)
	if !ok {
		return nil, nil
	}
	c, err := e.Join(ctx, etcdstore.ClusterOptions{TTL: time.Duration(cfg.Store.LeaseTTL), Logger: a.logger()})
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	pctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	cl := &cluster{c: c, changes: make(chan bot.OwnerChange), stop: stop, done: make(chan struct{})}
	go cl.pump(pctx)
	a.logger().Info("joined the cluster", "member", c.ID(), "lease_ttl", c.TTL(), "store", storeName(db))
	return cl, nil
}

// owners is the bot's Owners: nil without a cluster.
func (cl *cluster) owners() bot.Owners {
	if cl == nil {
		return nil
	}
	return cl
}

// leave lets every table of this process go at once, for the others.
func (cl *cluster) leave(ctx context.Context) error {
	if cl == nil {
		return nil
	}
	err := cl.c.Leave(ctx)
	cl.stop()
	<-cl.done
	return err
}

// pump turns the store's changes into the bot's.
func (cl *cluster) pump(ctx context.Context) {
	defer close(cl.done)
	defer close(cl.changes)
	kinds := map[etcdstore.ChangeKind]bot.OwnerChangeKind{etcdstore.Orphaned: bot.Orphaned, etcdstore.Lost: bot.Lost, etcdstore.Rescan: bot.Rescan}
	for ch := range cl.c.Changes() {
		select {
		case cl.changes <- bot.OwnerChange{Kind: kinds[ch.Kind], Table: ch.Table}:
		case <-ctx.Done():
			return
		}
	}
}

// Acquire implements bot.Owners.
func (cl *cluster) Acquire(ctx context.Context, table string) (bool, error) {
	return cl.c.Acquire(ctx, table)
}

// Release implements bot.Owners.
func (cl *cluster) Release(ctx context.Context, table string) error {
	return cl.c.Release(ctx, table)
}

// Owner implements bot.Owners.
func (cl *cluster) Owner(ctx context.Context, table string) (bot.Owner, bool, error) {
	m, ok, err := cl.c.Owner(ctx, table)
	return bot.Owner{Self: m.ID == cl.c.ID(), Addrs: m.Addrs}, ok, err
}

// Changes implements bot.Owners.
func (cl *cluster) Changes() <-chan bot.OwnerChange { return cl.changes }

// advertise tells the other processes an address of this one.
func (cl *cluster) advertise(ctx context.Context, name, addr string) error {
	if cl == nil {
		return nil
	}
	return cl.c.SetAddr(ctx, name, addr)
}

// turn is Discord's identify pacing across the processes of the cluster:
// a bucket's identifies one process at a time (a unit held), each every
// after the last was answered (a pace passed after it), whichever process
// runs the shard; nil without a cluster (the platform paces its own).
func (cl *cluster) turn() func(ctx context.Context, bucket int, every time.Duration, open func() error) error {
	if cl == nil {
		return nil
	}
	return func(ctx context.Context, bucket int, every time.Duration, open func() error) error {
		name := fmt.Sprintf("discord/identify/%d", bucket)
		hctx, release := context.WithCancel(ctx)
		defer release()
		if _, err := cl.c.Hold(hctx, name); err != nil {
			return err
		}
		if err := cl.c.Pace(ctx, name, every); err != nil {
			return err
		}
		if err := open(); err != nil {
			return err
		}
		return cl.c.Pace(ctx, name, 0) // the next waits every from now, the identify answered
	}
}
