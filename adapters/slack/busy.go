package slack

import "sync"

// busy counts the events taken from Slack (acknowledged) but not yet
// handled. Socket Mode counts an envelope before acknowledging it, so once
// Slack has the ack the event counts until its handler returns: tests
// wait for idle before moving a fake clock.
type busy struct {
	mu   sync.Mutex
	n    int
	zero chan struct{} // closed when n drops to 0
}

func (b *busy) add() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n == 0 {
		b.zero = make(chan struct{})
	}
	b.n++
}

func (b *busy) done() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n--
	if b.n == 0 {
		close(b.zero)
	}
}

// idle is closed when no event is in flight.
func (b *busy) idle() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n == 0 {
		c := make(chan struct{})
		close(c)
		return c
	}
	return b.zero
}
