package bot

import (
	"sync"
	"time"
)

// Readier is an optional capability of a Platform: Ready is closed once the
// platform can post (the web channel's rooms are loaded, Discord's READY
// arrived, Slack's socket is connected). The bot delivers nothing to a
// platform before then; what it must post waits in the log.
type Readier interface {
	Ready() <-chan struct{}
}

func (c Config) retryMin() time.Duration {
	if c.RetryMin > 0 {
		return c.RetryMin
	}
	return DefaultRetryMin
}

func (c Config) retryMax() time.Duration {
	if c.RetryMax > 0 {
		return max(c.RetryMax, c.retryMin())
	}
	return max(DefaultRetryMax, c.retryMin())
}

// Readiness implements Readier for adapters: embed it and call Set once
// the platform can post. The zero value is not ready; it is safe for
// concurrent use.
type Readiness struct {
	mu  sync.Mutex
	ch  chan struct{}
	set bool
}

// Ready implements Readier.
func (r *Readiness) Ready() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.chLocked()
}

// Set marks the platform ready; later calls do nothing.
func (r *Readiness) Set() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.set {
		r.set = true
		close(r.chLocked())
	}
}

// chLocked returns the channel, made on first use; the caller holds mu.
func (r *Readiness) chLocked() chan struct{} {
	if r.ch == nil {
		r.ch = make(chan struct{})
	}
	return r.ch
}
