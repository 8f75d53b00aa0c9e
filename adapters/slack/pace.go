package slack

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/slack-go/slack"
)

// pacer keeps posts within Slack's limits: at most one post per interval
// in each channel (a thread counts against its channel), and every call
// that meets a 429 waits for its Retry-After and tries again, so nothing is
// dropped and a channel's posts keep their order.
type pacer struct {
	interval time.Duration
	wait     func(ctx context.Context, d time.Duration) error

	mu    sync.Mutex
	lanes map[string]*lane

	reads readGate
}

// readGate paces the calls that read history (conversations.history and
// conversations.replies) for the whole workspace, as Slack limits them:
// one call at a time, at most one per interval, and after a 429 none
// until its Retry-After has passed, so that only the first read that
// learns a limit meets it. Posts never wait for it.
type readGate struct {
	interval time.Duration
	now      func() time.Time
	sem      chan struct{}
	next     time.Time // earliest time of the next read; under sem
}

// read makes call, a history read, when the gate lets it.
func (p *pacer) read(ctx context.Context, call func(context.Context) error) error {
	g := &p.reads
	select {
	case g.sem <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-g.sem }()
	for {
		if d := g.next.Sub(g.now()); d > 0 {
			if err := p.wait(ctx, d); err != nil {
				return err
			}
		}
		err := call(ctx)
		g.next = g.now().Add(g.interval)
		d, limited := retryAfter(err)
		if !limited {
			return err
		}
		g.next = g.now().Add(d)
	}
}

// lane is one channel's queue: holding it orders the channel's posts.
type lane struct {
	p    *pacer
	sem  chan struct{}
	next time.Time // earliest time of the next post
}

func newPacer(interval time.Duration, reads readGate, wait func(context.Context, time.Duration) error) *pacer {
	reads.sem = make(chan struct{}, 1)
	return &pacer{interval: interval, wait: wait, lanes: map[string]*lane{}, reads: reads}
}

// acquire takes channel's lane; the caller posts with send and then calls
// release. Holding it across the parts of a split message keeps them
// together.
func (p *pacer) acquire(ctx context.Context, channel string) (*lane, error) {
	p.mu.Lock()
	l, ok := p.lanes[channel]
	if !ok {
		l = &lane{p: p, sem: make(chan struct{}, 1)}
		p.lanes[channel] = l
	}
	p.mu.Unlock()
	select {
	case l.sem <- struct{}{}:
		return l, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// release gives the lane back.
func (l *lane) release() { <-l.sem }

// send waits for the channel's turn, then makes call until it is not rate
// limited.
func (l *lane) send(ctx context.Context, call func(context.Context) error) error {
	if d := time.Until(l.next); d > 0 {
		if err := l.p.wait(ctx, d); err != nil {
			return err
		}
	}
	err := l.p.retry(ctx, call)
	l.next = time.Now().Add(l.p.interval)
	return err
}

// retry makes call until it is not rate limited, waiting out each
// Retry-After (at least a second when Slack names none).
func (p *pacer) retry(ctx context.Context, call func(context.Context) error) error {
	for {
		err := call(ctx)
		d, limited := retryAfter(err)
		if !limited {
			return err
		}
		if err := p.wait(ctx, d); err != nil {
			return err
		}
	}
}

// retryAfter reports whether err is a 429 and how long to wait.
func retryAfter(err error) (time.Duration, bool) {
	var rl *slack.RateLimitedError
	if errors.As(err, &rl) {
		return max(rl.RetryAfter, time.Second), true
	}
	var sc slack.StatusCodeError
	if errors.As(err, &sc) && sc.Code == 429 {
		return time.Second, true
	}
	return 0, false
}
