package etcdstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

// DefaultTTL is how long a process's lease outlives its last renewal
// unless ClusterOptions.TTL says otherwise: the tables of a process that
// died are taken over by the others within it.
const DefaultTTL = 3 * time.Second

// A cluster is the processes that serve the tables of one store. Each
// process joins it with one lease, renewed while it lives, and owns the
// tables it acquired through keys held by that lease:
//
//	member/<id>   the process (Member, JSON); id is new at every Join
//	own/<table>   the ID of the member that owns the table
//	unit/<name>   the ID of the member that holds a named unit (Hold)
//	pace/<name>   when the unit name was last passed (Pace), in Unix ns
//
// A table has one owner at a time: acquiring it creates its own/ key only
// if there is none. Every append to a table compares that the key is
// still held by this process's lease, so a process that lost a table
// (its lease expired while it was cut off, or paused) writes nothing more
// to it: the append fails with ErrFenced. When a process dies its lease
// expires, etcd deletes its keys, and every other member is told that its
// tables are orphaned (Changes) and campaigns for them.

// ErrNoLease is the error of a cluster call made while the process has
// no lease (it lost one and is getting another) or after it left.
var ErrNoLease = errors.New("this process holds no lease in the cluster (cut off from etcd?)")

// Member is a process of a cluster as the others see it.
type Member struct {
	ID string `json:"id"`
	// Addrs are where the process serves, by name (the web channel's
	// URL under "web"), so that another can send a request on to it.
	Addrs map[string]string `json:"addrs,omitempty"`
}

// ChangeKind says what happened to a table's ownership.
type ChangeKind int

// The kinds of Change.
const (
	// Orphaned: the table's owner let it go or died; campaign for it.
	Orphaned ChangeKind = iota + 1
	// Lost: this process no longer owns the table; stop serving it.
	Lost
	// Rescan: changes may have been missed (the process got a new lease,
	// or its watch restarted); campaign for every table no one owns.
	Rescan
)

// Change is a change of a table's ownership (no table for Rescan).
type Change struct {
	Kind  ChangeKind
	Table string
}

// ClusterOptions configure Join.
type ClusterOptions struct {
	// TTL is the lease's time to live, DefaultTTL when zero; etcd rounds
	// it up to whole seconds (and to its own least, about 2 s).
	TTL time.Duration
	// Addrs are the member's addresses (SetAddr adds more later).
	Addrs map[string]string
	// Logger receives what goes wrong in the background; nil discards.
	Logger *slog.Logger
}

// Cluster is this process's membership in the cluster of a store. Join
// returns it; it is safe for concurrent use.
type Cluster struct {
	db  *DB
	ttl time.Duration // asked for, in whole seconds
	log *slog.Logger
	id  string

	mu      sync.Mutex
	sess    *lease        // nil between leases and after Leave
	renewed chan struct{} // closed when sess is set again
	addrs   map[string]string
	held    map[string]bool   // tables acquired under sess
	members map[string]Member // the members read, by ID (an ID is never reused)
	changes *changeQueue
	left    bool // Leave was called: no new lease is taken

	cancel context.CancelFunc
	done   chan struct{}
}

// Join makes this process a member of the store's cluster: it takes a
// lease and keeps it renewed until Leave (or ctx ends). From then on every
// append to a table must come from the table's owner (Acquire).
func (db *DB) Join(ctx context.Context, opt ClusterOptions) (*Cluster, error) {
	if opt.TTL <= 0 {
		opt.TTL = DefaultTTL
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	id, err := writerID()
	if err != nil {
		return nil, fmt.Errorf("join the cluster of %s: %w", db, err)
	}
	c := &Cluster{db: db, ttl: time.Duration(max(math.Ceil(opt.TTL.Seconds()), 1)) * time.Second, log: opt.Logger, id: id,
		addrs: map[string]string{}, held: map[string]bool{}, members: map[string]Member{},
		renewed: make(chan struct{}), changes: newChangeQueue(), done: make(chan struct{})}
	for k, v := range opt.Addrs {
		c.addrs[k] = v
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	c.cancel = cancel
	s, rev, err := c.lease(ctx, runCtx)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("join the cluster of %s: %w", db, err)
	}
	c.setSession(s)
	db.cluster.Store(c)
	go func() {
		defer close(c.done)
		defer c.changes.close()
		c.run(runCtx, s, rev)
	}()
	return c, nil
}

// ID is this process's member ID.
func (c *Cluster) ID() string { return c.id }

// TTL is the lease's time to live, as etcd granted it (which may be more
// than asked for: etcd's least is one and a half election timeouts).
func (c *Cluster) TTL() time.Duration {
	if s := c.session(); s != nil {
		return s.ttl
	}
	return c.ttl
}

// Changes delivers the changes of table ownership this process must act
// on, in order; it is closed after Leave.
func (c *Cluster) Changes() <-chan Change { return c.changes.out }

// Leave revokes the lease: every table this process owned is orphaned at
// once, for the others to take over without waiting for the lease to
// expire. Appends fail from then on.
func (c *Cluster) Leave(ctx context.Context) error {
	c.mu.Lock()
	s := c.sess
	c.sess, c.held, c.left = nil, map[string]bool{}, true
	c.mu.Unlock()
	var err error
	if s != nil {
		err = s.Close() // revokes the lease
	}
	c.cancel()
	<-c.done
	if err != nil {
		return fmt.Errorf("leave the cluster of %s: %w", c.db, err)
	}
	return nil
}

// SetAddr adds (or changes) an address of this member, once it is known
// (the web channel's URL, once it listens).
func (c *Cluster) SetAddr(ctx context.Context, name, addr string) error {
	c.mu.Lock()
	c.addrs[name] = addr
	s := c.sess
	c.mu.Unlock()
	if s == nil {
		return ErrNoLease // put again with the next lease
	}
	if err := c.putMember(ctx, s); err != nil {
		return fmt.Errorf("advertise %s: %w", name, err)
	}
	return nil
}

// lease takes a new lease and registers the member under it; rev is the
// revision from which changes must be watched.
func (c *Cluster) lease(ctx, runCtx context.Context) (*lease, int64, error) {
	s, err := grant(ctx, runCtx, c.db.cli, c.ttl)
	if err != nil {
		return nil, 0, fmt.Errorf("take a lease: %w", err)
	}
	if err := c.putMember(ctx, s); err != nil {
		_ = s.Close()
		return nil, 0, err
	}
	resp, err := c.db.cli.Get(ctx, c.db.keys.member(c.id))
	if err != nil {
		_ = s.Close()
		return nil, 0, fmt.Errorf("read the member key: %w", err)
	}
	return s, resp.Header.Revision, nil
}

// putMember writes this member's key under s's lease.
func (c *Cluster) putMember(ctx context.Context, s *lease) error {
	c.mu.Lock()
	m := Member{ID: c.id, Addrs: map[string]string{}}
	for k, v := range c.addrs {
		m.Addrs[k] = v
	}
	c.mu.Unlock()
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Errorf("encode member: %w", err)
	}
	if _, err := c.db.cli.Put(ctx, c.db.keys.member(c.id), string(b), clientv3.WithLease(s.Lease())); err != nil {
		return fmt.Errorf("register member %s: %w", c.id, err)
	}
	return nil
}

// session returns the lease this process holds now, or nil.
func (c *Cluster) session() *lease {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess
}

// setSession makes s the lease this process holds, unless it left.
func (c *Cluster) setSession(s *lease) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left {
		_ = s.Close()
		return false
	}
	c.sess = s
	close(c.renewed)
	c.renewed = make(chan struct{})
	return true
}

// waitLease returns the lease this process holds, waiting for the next
// one while it has none, or while it still has old (a lease found lost
// that run has not replaced yet; nil for none).
func (c *Cluster) waitLease(ctx context.Context, old *lease) (*lease, error) {
	for {
		c.mu.Lock()
		s, renewed := c.sess, c.renewed
		c.mu.Unlock()
		if s != nil && s != old {
			return s, nil
		}
		select {
		case <-renewed:
		case <-c.done:
			return nil, ErrNoLease
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// run watches the owner keys and the lease until ctx ends: a lost lease
// loses every table and is replaced by a new one.
func (c *Cluster) run(ctx context.Context, s *lease, rev int64) {
	for ctx.Err() == nil {
		rev = c.watch(ctx, s, rev)
		if ctx.Err() != nil {
			return
		}
		select {
		case <-s.Done():
		default:
			c.changes.push(Change{Kind: Rescan}) // the watch broke off: what it missed is found again
			continue
		}
		if !c.loseAll(s) {
			return // left
		}
		if err := s.Close(); err != nil { // its tables go to others at once, if etcd still had it
			c.log.Warn("cluster: revoke the lost lease", "member", c.id, "err", err)
		}
		var err error
		if s, rev, err = c.renew(ctx); err != nil {
			return
		}
		if !c.setSession(s) {
			return
		}
		c.changes.push(Change{Kind: Rescan})
	}
}

// renew takes a new lease after the last one was lost, retrying until ctx
// ends.
func (c *Cluster) renew(ctx context.Context) (*lease, int64, error) {
	wait := 100 * time.Millisecond
	for {
		s, rev, err := c.lease(ctx, ctx)
		if err == nil {
			c.log.Warn("cluster: took a new lease after losing the last one", "member", c.id)
			return s, rev, nil
		}
		c.log.Error("cluster: cannot take a new lease; retrying", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, c.ttl)
	}
}

// loseAll tells that every table held under s is lost; false when the
// process left the cluster meanwhile.
func (c *Cluster) loseAll(s *lease) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left || c.sess != s {
		return false
	}
	c.log.Error("cluster: lost the lease (cut off from etcd for longer than its TTL?); this process's tables go to others", "member", c.id, "tables", len(c.held))
	for t := range c.held {
		c.changes.push(Change{Kind: Lost, Table: t})
	}
	c.sess, c.held = nil, map[string]bool{}
	return true
}
