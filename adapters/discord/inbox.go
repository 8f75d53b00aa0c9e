package discord

import (
	"context"

	"github.com/roundtable-ai/roundtable/bot"
)

// inbox hands events to the service in order per channel: each channel
// with pending events has one goroutine draining them, so a slow event
// delays its channel only. The gateway goroutine only pushes. A channel
// whose lane is full gets its new events refused: their users are told
// to try again.
type inbox struct {
	ctx   context.Context
	h     bot.Handler
	p     *Platform // answers refused events
	lanes bot.Lanes
}

func newInbox(ctx context.Context, h bot.Handler, p *Platform) *inbox {
	return &inbox{ctx: ctx, h: h, p: p, lanes: bot.Lanes{Depth: p.depth}}
}

// push queues ev behind its channel's earlier events; done (optional) runs
// after the handler returns, or instead of it once ctx is done. An event
// whose payload is unreadable (the reason) is answered with the reason
// instead of handled.
func (in *inbox) push(ev *bot.Event, done func(), unreadable string) {
	ev.Strip() // what people's clients do not show goes at the edge
	if in.lanes.Do(ev.Channel, func() {
		switch {
		case in.ctx.Err() != nil:
		case unreadable != "":
			in.refuseUnreadable(ev, unreadable)
		default:
			in.h(in.ctx, ev)
		}
		if done != nil {
			done()
		}
	}) {
		return
	}
	if !in.lanes.Refuse(ev.Channel, func() { in.refuse(ev, done) }) && done != nil {
		done()
	}
}

// refuse tells ev's user that ev was not queued.
func (in *inbox) refuse(ev *bot.Event, done func()) {
	if done != nil {
		defer done()
	}
	if in.ctx.Err() != nil {
		return
	}
	in.p.log.Warn("event refused: its channel's queue is full", "channel", ev.Channel, "kind", ev.Kind)
	if err := in.p.Reply(in.ctx, ev, bot.TryAgain()); err != nil {
		in.p.log.Warn("reply to a refused event", "err", err)
	}
}

// refuseUnreadable tells ev's user that what they sent cannot be taken
// as they wrote it, and why; the service never sees it.
func (in *inbox) refuseUnreadable(ev *bot.Event, why string) {
	in.p.log.Warn("event refused: its payload cannot be read as written", "channel", ev.Channel, "kind", ev.Kind, "why", why)
	if ev.User.Bot {
		return
	}
	if err := in.p.Reply(in.ctx, ev, bot.CannotRead(why)); err != nil {
		in.p.log.Warn("reply to an unreadable event", "err", err)
	}
}

// wait returns once every queued event was delivered or dropped.
func (in *inbox) wait() { in.lanes.Wait() }
