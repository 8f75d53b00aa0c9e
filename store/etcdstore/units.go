package etcdstore

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Hold waits until this process holds the unit called name (a Discord
// shard, say), which one member holds at a time, and returns a channel
// closed when it no longer does: its lease was lost, or ctx ended, when
// the unit is let go for another member to take.
func (c *Cluster) Hold(ctx context.Context, name string) (<-chan struct{}, error) {
	k := c.db.keys.unit(name)
	var gone *lease
	for {
		s, err := c.waitLease(ctx, gone)
		if err != nil {
			return nil, fmt.Errorf("hold %s: %w", name, err)
		}
		resp, err := c.db.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
			Then(clientv3.OpPut(k, c.id, clientv3.WithLease(s.Lease()))).Else(clientv3.OpGet(k)).Commit()
		if isLeaseGone(err) {
			s.lost() // the next lease holds it
			gone = s
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("hold %s: %w", name, err)
		}
		kv := first(resp.Responses[0].GetResponseRange().GetKvs())
		if resp.Succeeded || (kv != nil && clientv3.LeaseID(kv.Lease) == s.Lease()) {
			lost := make(chan struct{})
			go c.keep(ctx, k, s, resp.Header.Revision, lost)
			return lost, nil
		}
		if err := c.waitGone(ctx, k, resp.Header.Revision); err != nil {
			return nil, fmt.Errorf("hold %s: %w", name, err)
		}
	}
}

// keep closes lost once the unit at key k is no longer held under s (from
// revision rev on), and lets it go when ctx ends.
func (c *Cluster) keep(ctx context.Context, k string, s *lease, rev int64, lost chan<- struct{}) {
	defer close(lost)
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wch := c.db.cli.Watch(wctx, k, clientv3.WithRev(rev+1))
	for {
		select {
		case <-s.Done():
			return
		case <-ctx.Done():
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.TTL())
			_, _ = c.db.cli.Txn(rctx).If(clientv3.Compare(clientv3.LeaseValue(k), "=", s.Lease())).Then(clientv3.OpDelete(k)).Commit()
			cancel()
			return
		case resp, ok := <-wch:
			if !ok || resp.Err() != nil {
				wch = c.db.cli.Watch(wctx, k, clientv3.WithRev(rev+1)) // broke off: from where it was
				continue
			}
			for _, ev := range resp.Events {
				if ev.Type == mvccpb.DELETE || clientv3.LeaseID(ev.Kv.Lease) != s.Lease() {
					return
				}
			}
			rev = resp.Header.Revision
		}
	}
}

// waitGone waits until key k, which exists at revision rev, is deleted.
func (c *Cluster) waitGone(ctx context.Context, k string, rev int64) error {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for wresp := range c.db.cli.Watch(wctx, k, clientv3.WithRev(rev+1)) {
		if err := wresp.Err(); err != nil {
			return nil // try again from the start
		}
		for _, ev := range wresp.Events {
			if ev.Type == mvccpb.DELETE {
				return nil
			}
		}
	}
	return ctx.Err()
}

// Pace waits until the unit called name was last passed at least every
// ago by any member, and passes it: across the cluster, at most one Pace
// of name returns per every (Discord's identify of a shard bucket, once
// per 5 s). It relies on the members' clocks agreeing to well within
// every.
func (c *Cluster) Pace(ctx context.Context, name string, every time.Duration) error {
	k := c.db.keys.pace(name)
	for {
		resp, err := c.db.cli.Get(ctx, k)
		if err != nil {
			return fmt.Errorf("pace %s: %w", name, err)
		}
		var rev int64
		if kv := first(resp.Kvs); kv != nil {
			rev = kv.ModRevision
			last, _ := strconv.ParseInt(string(kv.Value), 10, 64)
			if wait := time.Until(time.Unix(0, last).Add(every)); wait > 0 {
				if !sleep(ctx, wait) {
					return fmt.Errorf("pace %s: %w", name, ctx.Err())
				}
				continue
			}
		}
		now := strconv.FormatInt(time.Now().UnixNano(), 10)
		tr, err := c.db.cli.Txn(ctx).If(clientv3.Compare(clientv3.ModRevision(k), "=", rev)).Then(clientv3.OpPut(k, now)).Commit()
		if err != nil {
			return fmt.Errorf("pace %s: %w", name, err)
		}
		if tr.Succeeded {
			return nil
		}
	}
}

// sleep waits d, or until ctx ends; it reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
