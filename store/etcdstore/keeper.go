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

// leaseAttempt bounds one renewal of a lease (and its least retry wait):
// a member that stalls is given up on after it and the renewal retried,
// through whichever member answers, well before the lease runs out.
const leaseAttempt = 250 * time.Millisecond

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

// keep renews the lease every third of its time to live, retrying a
// renewal that fails or stalls every leaseAttempt, until the lease is
// lost: etcd says so, or no renewal sent got through for the time to
// live since the last that did (sent at last).
func (l *lease) keep(ctx context.Context, last time.Time) {
	defer l.lost()
	every := l.ttl / 3
	wait := every
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.done:
			return
		case <-time.After(wait):
		}
		sent := time.Now()
		actx, cancel := context.WithTimeout(ctx, max(leaseAttempt, every/2))
		resp, err := l.cli.KeepAliveOnce(actx, l.id)
		cancel()
		switch {
		case err == nil && resp.TTL > 0:
			last, wait = sent, every
		case errors.Is(err, rpctypes.ErrLeaseNotFound) || err == nil:
			return // gone in etcd
		case ctx.Err() != nil:
			return
		case time.Since(last) >= l.ttl:
			return // cut off for the whole lease: etcd has let it go, or soon will
		default:
			wait = leaseAttempt // a member stalled or an election: again, soon
		}
	}
}

// isLeaseGone reports whether err says the lease a request named is no
// longer in etcd.
func isLeaseGone(err error) bool { return errors.Is(err, rpctypes.ErrLeaseNotFound) }
