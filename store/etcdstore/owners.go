package etcdstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Acquire makes this process the owner of table unless another process
// owns it, and reports whether this process owns it now. Between leases
// (the last was lost, the next is being taken) it waits for the next one;
// it fails with ErrNoLease only once the process left the cluster.
//
// A request the cluster did not answer in time is tried again (a
// campaign is idempotent: a try that landed is found mine), so that a
// member that stalls delays a campaign rather than leaving the table
// without a campaign.
func (c *Cluster) Acquire(ctx context.Context, table string) (bool, error) {
	var gone *lease
	wait := 50 * time.Millisecond
	for {
		s, err := c.waitLease(ctx, gone)
		if err != nil {
			return false, fmt.Errorf("acquire table %s: %w", table, err)
		}
		mine, err := c.acquire(ctx, table, s)
		switch {
		case isLeaseGone(err):
			s.lost() // etcd let it go before this process saw: the next lease acquires
			gone = s
			continue
		case err != nil && retriable(ctx, err) && sleep(ctx, wait):
			c.log.Warn("cluster: campaign for a table unanswered; trying again", "table", table, "err", err)
			wait = min(2*wait, c.ttl)
			continue
		}
		return mine, err
	}
}

// acquire campaigns for table under lease s.
func (c *Cluster) acquire(ctx context.Context, table string, s *lease) (bool, error) {
	k := c.db.keys.owner(table)
	resp, err := c.db.cli.Txn(ctx).If(clientv3.Compare(clientv3.CreateRevision(k), "=", 0)).
		Then(clientv3.OpPut(k, c.id, clientv3.WithLease(s.Lease()))).Else(clientv3.OpGet(k)).Commit()
	if err != nil {
		return false, fmt.Errorf("acquire table %s: %w", table, err)
	}
	mine := resp.Succeeded
	if kv := first(resp.Responses[0].GetResponseRange().GetKvs()); !mine && kv != nil {
		mine = clientv3.LeaseID(kv.Lease) == s.Lease()
	}
	if !mine {
		return false, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sess != s {
		return false, nil // the lease was lost meanwhile
	}
	c.held[table] = true
	return true, nil
}

// Release lets table go, if this process owns it: the others are told
// it is orphaned.
func (c *Cluster) Release(ctx context.Context, table string) error {
	c.mu.Lock()
	s := c.sess
	delete(c.held, table)
	c.mu.Unlock()
	if s == nil {
		return nil // lost with the lease already
	}
	k := c.db.keys.owner(table)
	_, err := c.db.cli.Txn(ctx).If(clientv3.Compare(clientv3.LeaseValue(k), "=", s.Lease())).Then(clientv3.OpDelete(k)).Commit()
	if err != nil {
		return fmt.Errorf("release table %s: %w", table, err)
	}
	return nil
}

// Owner returns the member that owns table, and false when none does.
func (c *Cluster) Owner(ctx context.Context, table string) (Member, bool, error) {
	resp, err := c.db.cli.Get(ctx, c.db.keys.owner(table))
	if err != nil {
		return Member{}, false, fmt.Errorf("owner of table %s: %w", table, err)
	}
	kv := first(resp.Kvs)
	if kv == nil {
		return Member{}, false, nil
	}
	m, err := c.member(ctx, string(kv.Value))
	if err != nil {
		return Member{}, false, fmt.Errorf("owner of table %s: %w", table, err)
	}
	return m, true, nil
}

// Self returns this process as the others see it.
func (c *Cluster) Self() Member {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := Member{ID: c.id, Addrs: map[string]string{}}
	for k, v := range c.addrs {
		m.Addrs[k] = v
	}
	return m
}

// member reads member id (once: a member's addresses are set as it
// starts, before it owns tables another would send requests for).
func (c *Cluster) member(ctx context.Context, id string) (Member, error) {
	if id == c.id {
		return c.Self(), nil
	}
	c.mu.Lock()
	m, ok := c.members[id]
	c.mu.Unlock()
	if ok && len(m.Addrs) > 0 {
		return m, nil
	}
	resp, err := c.db.cli.Get(ctx, c.db.keys.member(id))
	if err != nil {
		return Member{}, fmt.Errorf("read member %s: %w", id, err)
	}
	m = Member{ID: id}
	if kv := first(resp.Kvs); kv != nil {
		if err := json.Unmarshal(kv.Value, &m); err != nil {
			return Member{}, fmt.Errorf("decode member %s: %w", id, err)
		}
		c.mu.Lock()
		c.members[id] = m
		c.mu.Unlock()
	}
	return m, nil
}

// fenced notes that an append to table was refused by its guard: if
// this process thought it owned the table, it is told it lost it.
func (c *Cluster) fenced(table string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held[table] {
		delete(c.held, table)
		c.changes.push(Change{Kind: Lost, Table: table})
	}
}

// guard is the comparison that this process owns table, which every
// append to it passes.
func (c *Cluster) guard(table string) clientv3.Cmp {
	k := c.db.keys.owner(table)
	s := c.session()
	if s == nil {
		return clientv3.Compare(clientv3.Version(k), "<", 0) // never true: no lease, no write
	}
	return clientv3.Compare(clientv3.LeaseValue(k), "=", s.Lease())
}

// watch follows the owner keys from rev until the watch breaks off, s
// is lost or ctx ends, and returns the revision to go on from.
func (c *Cluster) watch(ctx context.Context, s *lease, rev int64) int64 {
	wctx, cancel := context.WithCancel(clientv3.WithRequireLeader(ctx))
	defer cancel()
	wch := c.db.cli.Watch(wctx, c.db.keys.owners(), clientv3.WithPrefix(), clientv3.WithPrevKV(), clientv3.WithRev(rev+1))
	for {
		select {
		case <-ctx.Done():
			return rev
		case <-s.Done():
			return rev
		case resp, ok := <-wch:
			if !ok || resp.Err() != nil {
				if ok && resp.CompactRevision > 0 {
					return resp.CompactRevision - 1
				}
				return rev
			}
			for _, ev := range resp.Events {
				c.deleted(ev, s)
			}
			rev = resp.Header.Revision
		}
	}
}

// deleted acts on an owner key's deletion: a table this process held is
// lost, another's is orphaned.
func (c *Cluster) deleted(ev *clientv3.Event, s *lease) {
	if ev.Type != mvccpb.DELETE {
		return
	}
	table, err := unesc(strings.TrimPrefix(string(ev.Kv.Key), c.db.keys.owners()))
	if err != nil {
		return
	}
	mine := ev.PrevKv != nil && clientv3.LeaseID(ev.PrevKv.Lease) == s.Lease()
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case mine && c.held[table]:
		delete(c.held, table)
		c.changes.push(Change{Kind: Lost, Table: table})
	case !mine:
		c.changes.push(Change{Kind: Orphaned, Table: table})
	}
}

// changeQueue hands changes on in order without ever blocking whoever
// pushes them (the watch, an append that was fenced).
type changeQueue struct {
	mu     sync.Mutex
	in     chan Change
	closed bool
	out    chan Change
}

func newChangeQueue() *changeQueue {
	q := &changeQueue{in: make(chan Change), out: make(chan Change)}
	go q.pump()
	return q
}

// push queues ch; after close it is dropped.
func (q *changeQueue) push(ch Change) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.in <- ch
	}
}

func (q *changeQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.closed {
		q.closed = true
		close(q.in)
	}
}

// pump moves changes from in to out, keeping those out cannot take yet.
func (q *changeQueue) pump() {
	defer close(q.out)
	var buf []Change
	in := q.in
	for in != nil {
		var out chan Change
		var next Change
		if len(buf) > 0 {
			out, next = q.out, buf[0]
		}
		select {
		case ch, ok := <-in:
			if !ok {
				in = nil // closed at Leave: nobody reads what is left
				continue
			}
			buf = append(buf, ch)
		case out <- next:
			buf = buf[1:]
		}
	}
}
