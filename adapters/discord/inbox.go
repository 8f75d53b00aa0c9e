package discord

import (
	"context"
	"sync"

	"github.com/roundtable-ai/roundtable/bot"
)

// inbox hands events to the service in order per channel: each channel
// with pending events has one goroutine draining them, so a slow event
// delays its channel only. The gateway goroutine only pushes.
type inbox struct {
	ctx context.Context
	h   bot.Handler

	mu    sync.Mutex
	lanes map[string][]delivery // a key is present while its lane drains
	wg    sync.WaitGroup
}

// delivery is an event and what to do once it was handled.
type delivery struct {
	ev   *bot.Event
	done func()
}

func newInbox(ctx context.Context, h bot.Handler) *inbox {
	return &inbox{ctx: ctx, h: h, lanes: map[string][]delivery{}}
}

// push queues ev behind its channel's earlier events; done (optional) runs
// after the handler returns, or instead of it once ctx is done.
func (in *inbox) push(ev *bot.Event, done func()) {
	in.mu.Lock()
	defer in.mu.Unlock()
	q, draining := in.lanes[ev.Channel]
	in.lanes[ev.Channel] = append(q, delivery{ev, done})
	if !draining {
		in.wg.Add(1)
		go in.drain(ev.Channel)
	}
}

// drain delivers a channel's events until none is left.
func (in *inbox) drain(channel string) {
	defer in.wg.Done()
	for {
		in.mu.Lock()
		q := in.lanes[channel]
		if len(q) == 0 {
			delete(in.lanes, channel)
			in.mu.Unlock()
			return
		}
		in.lanes[channel] = q[1:]
		in.mu.Unlock()
		in.deliver(q[0])
	}
}

func (in *inbox) deliver(d delivery) {
	if in.ctx.Err() == nil {
		in.h(in.ctx, d.ev)
	}
	if d.done != nil {
		d.done()
	}
}

// wait returns once every queued event was delivered or dropped.
func (in *inbox) wait() { in.wg.Wait() }
