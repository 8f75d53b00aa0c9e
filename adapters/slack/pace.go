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
}

// lane is one channel's queue: holding it orders the channel's posts.
type lane struct {
	p    *pacer
	sem  chan struct{}
	next time.Time // earliest time of the next post
}

func newPacer(interval time.Duration, wait func(context.Context, time.Duration) error) *pacer {
	return &pacer{interval: interval, wait: wait, lanes: map[string]*lane{}}
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
