package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// leaseHedge is how long a renewal of a lease may go unanswered before
// another is sent beside it (at most leaseHedges at once): a member that
// stalls is gone round, through whichever member answers, and a renewal
// that is only slow (a loaded machine) is not given up on.
const (
	leaseHedge  = 250 * time.Millisecond
	leaseHedges = 4
)

// lease is a lease this process holds, renewed in the background until it
// is lost or closed. It replaces etcd's concurrency.Session, whose client
// side gives a lease up as soon as one renewal is late: under load (a
// member stalled, the process descheduled) that lost leases the cluster
// still held. A lease is given up only when etcd says it is gone, or when
// no renewal got through for its whole time to live (cut off: the others
// may own its tables by now).
type lease struct {
	cli  *clientv3.Client
	id   clientv3.LeaseID
	ttl  time.Duration
	stop context.CancelFunc

	once sync.Once
	done chan struct{} // closed when lost or closed
}

// grant takes a lease of ttl (whole seconds; etcd may raise it to its
// least) within ctx and keeps it renewed until keepCtx ends, it is lost,
// or Close.
func grant(ctx, keepCtx context.Context, cli *clientv3.Client, ttl time.Duration) (*lease, error) {
	resp, err := cli.Grant(ctx, int64(ttl/time.Second))
	if err != nil {
		return nil, fmt.Errorf("grant a lease: %w", err)
	}
	kctx, stop := context.WithCancel(keepCtx)
	l := &lease{cli: cli, id: resp.ID, ttl: time.Duration(resp.TTL) * time.Second, stop: stop, done: make(chan struct{})}
	go l.keep(kctx, time.Now())
	return l, nil
}

// Lease is the lease's ID.
func (l *lease) Lease() clientv3.LeaseID { return l.id }

// Done is closed once the lease is lost (or closed).
func (l *lease) Done() <-chan struct{} { return l.done }

// lost marks the lease lost: etcd said it is gone.
func (l *lease) lost() { l.once.Do(func() { close(l.done) }) }

// Close stops renewing the lease and revokes it, which deletes every key
// it holds at once.
func (l *lease) Close() error {
	l.stop()
	l.lost()
	ctx, cancel := context.WithTimeout(context.Background(), l.ttl)
	defer cancel()
	if _, err := l.cli.Revoke(ctx, l.id); err != nil && !errors.Is(err, rpctypes.ErrLeaseNotFound) {
		return fmt.Errorf("revoke lease %x: %w", l.id, err)
	}
	return nil
}

// keep renews the lease every third of its time to live until it is
// lost: etcd says so, or no renewal sent got through for the time to live
// since the last that did (sent at last).
func (l *lease) keep(ctx context.Context, last time.Time) {
	defer l.lost()
	every := l.ttl / 3
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.done:
			return
		case <-time.After(time.Until(last.Add(every))):
		}
		var ok bool
		if last, ok = l.renew(ctx, last); !ok {
			return
		}
	}
}

// renewal is the answer to one renewal, sent at sent.
type renewal struct {
	sent time.Time
	resp *clientv3.LeaseKeepAliveResponse
	err  error
}

// renew renews the lease, sending another renewal beside those unanswered
// every leaseHedge, until one gets through (it returns when that one was
// sent), etcd says the lease is gone, or the lease ran out since the
// renewal sent at last (false for both).
func (l *lease) renew(ctx context.Context, last time.Time) (time.Time, bool) {
	rctx, cancel := context.WithDeadline(ctx, last.Add(l.ttl))
	defer cancel()
	answers := make(chan renewal, leaseHedges)
	pending := 0
	send := func() {
		pending++
		sent := time.Now()
		go func() {
			resp, err := l.cli.KeepAliveOnce(rctx, l.id)
			answers <- renewal{sent: sent, resp: resp, err: err}
		}()
	}
	send()
	hedge := time.NewTicker(leaseHedge)
	defer hedge.Stop()
	for {
		select {
		case a := <-answers:
			pending--
			switch {
			case a.err == nil && a.resp.TTL > 0:
				return a.sent, true
			case a.err == nil || isLeaseGone(a.err):
				return time.Time{}, false // gone in etcd
			}
		case <-hedge.C:
			if pending < leaseHedges {
				send() // a member stalled, or an election: again, beside it
			}
		case <-rctx.Done():
			return time.Time{}, false // cut off for the whole lease: etcd has let it go, or soon will
		}
	}
}

// isLeaseGone reports whether err says the lease a request named is no
// longer in etcd.
func isLeaseGone(err error) bool { return errors.Is(err, rpctypes.ErrLeaseNotFound) }
