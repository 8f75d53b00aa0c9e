package discord

import (
	"context"

	"github.com/roundtable-ai/roundtable/bot"
)

// inbox hands events to the service in order per channel: each channel
// with pending events has one goroutine draining them, so a slow event
// delays its channel only. The gateway goroutine only pushes.
type inbox struct {
	ctx   context.Context
	h     bot.Handler
	lanes bot.Lanes
}

func newInbox(ctx context.Context, h bot.Handler) *inbox {
	return &inbox{ctx: ctx, h: h}
}

// push queues ev behind its channel's earlier events; done (optional) runs
// after the handler returns, or instead of it once ctx is done.
func (in *inbox) push(ev *bot.Event, done func()) {
	in.lanes.Do(ev.Channel, func() {
		if in.ctx.Err() == nil {
			in.h(in.ctx, ev)
		}
		if done != nil {
			done()
		}
	})
}

// wait returns once every queued event was delivered or dropped.
func (in *inbox) wait() { in.lanes.Wait() }
