package openai

import (
	"context"
	"sync"
	"time"
)

// bucket is a token bucket that lends: a reservation always succeeds, may
// take the balance below zero, and tells the caller how long to wait until
// the balance is back to zero. Lending keeps waiters in arrival order
// without a queue. A nil bucket is unlimited.
type bucket struct {
	mu     sync.Mutex
	rate   float64 // tokens per second
	burst  float64
	tokens float64
	last   time.Time
	now    func() time.Time
}

// newBucket returns a bucket refilling perMinute tokens a minute, holding at
// most that many, and starting full; perMinute <= 0 gives nil (unlimited).
func newBucket(perMinute int, now func() time.Time) *bucket {
	if perMinute <= 0 {
		return nil
	}
	n := float64(perMinute)
	return &bucket{rate: n / 60, burst: n, tokens: n, last: now(), now: now}
}

// reserve takes n tokens (at most a full bucket, so that any request can
// pass eventually) and returns the wait before they are covered.
func (b *bucket) reserve(n float64) time.Duration {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.tokens -= min(n, b.burst)
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / b.rate * float64(time.Second))
}

// adjust charges n more tokens (n < 0 gives them back).
func (b *bucket) adjust(n float64) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.refill()
	b.tokens = min(b.tokens-n, b.burst)
}

func (b *bucket) refill() {
	now := b.now()
	if dt := now.Sub(b.last).Seconds(); dt > 0 {
		b.tokens = min(b.burst, b.tokens+dt*b.rate)
	}
	b.last = now
}

// wait reserves n tokens and sleeps until they are covered; if ctx ends
// first, the tokens are given back.
func (b *bucket) wait(ctx context.Context, n float64, sleep func(context.Context, time.Duration) error) error {
	d := b.reserve(n)
	if d <= 0 {
		return nil
	}
	if err := sleep(ctx, d); err != nil {
		b.adjust(-min(n, b.burst))
		return err
	}
	return nil
}

// semaphore bounds the requests in flight; a nil one is unbounded.
type semaphore chan struct{}

func newSemaphore(n int) semaphore {
	if n <= 0 {
		return nil
	}
	return make(semaphore, n)
}

func (s semaphore) acquire(ctx context.Context) error {
	if s == nil {
		return nil
	}
	select {
	case s <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s semaphore) release() {
	if s != nil {
		<-s
	}
}
