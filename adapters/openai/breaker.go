package openai

import (
	"sync"
)

// breaker is an endpoint's circuit breaker. It opens after threshold calls
// in a row failed for want of a server (connection refused, DNS, 5xx after
// every retry), or at once on an answer that no retry can change (a bad
// key, no such model, no quota left, an output mode the server refuses).
// Once open it stays open: every later call fails at once with the error
// that opened it, which names the endpoint and what to fix. A nil breaker
// never opens.
type breaker struct {
	threshold int

	mu      sync.Mutex
	streak  int
	err     error
	done    chan struct{}
	tripped sync.Once
}

// newBreaker opens after threshold consecutive unavailable calls;
// threshold < 1 disables that count (fatal answers still open it).
func newBreaker(threshold int) *breaker {
	return &breaker{threshold: threshold, done: make(chan struct{})}
}

// open returns the error that opened the breaker, or nil.
func (b *breaker) open() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// success resets the count of consecutive failures.
func (b *breaker) success() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.streak = 0
}

// unavailable counts a call that found no server; it reports whether this
// call opened the breaker. err is the message to keep.
func (b *breaker) unavailable(err error) bool {
	b.mu.Lock()
	b.streak++
	n := b.streak
	b.mu.Unlock()
	if b.threshold < 1 || n < b.threshold {
		return false
	}
	return b.trip(err)
}

// trip opens the breaker with err; it reports whether it was closed.
func (b *breaker) trip(err error) bool {
	opened := false
	b.tripped.Do(func() {
		b.mu.Lock()
		b.err = err
		b.mu.Unlock()
		close(b.done)
		opened = true
	})
	return opened
}
