package bottest

import (
	"sort"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
)

// Clock is a fake bot.Clock. Timers fire, in the caller's goroutine, when
// Advance moves the clock past them.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
}

var _ bot.Clock = (*Clock)(nil)

type timer struct {
	c    *Clock
	at   time.Time
	f    func()
	done bool
}

// NewClock returns a clock reading t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now implements bot.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc implements bot.Clock.
func (c *Clock) AfterFunc(d time.Duration, f func()) bot.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

// Stop implements bot.Timer.
func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// Advance moves the clock by d and runs every timer that came due, in
// order of their times.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*timer
	armed := c.timers[:0] // fired and stopped timers are let go
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t)
		}
		if !t.done {
			armed = append(armed, t)
		}
	}
	clear(c.timers[len(armed):])
	c.timers = armed
	c.mu.Unlock()
	sort.SliceStable(due, func(i, j int) bool { return due[i].at.Before(due[j].at) })
	for _, t := range due {
		t.f()
	}
}

// Pending returns how many timers are armed.
func (c *Clock) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.done {
			n++
		}
	}
	return n
}
