package slack

import (
	"context"
	"unicode/utf8"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/roundtable-ai/roundtable/bot"
)

// The transport-agnostic handlers: Socket Mode and the HTTP Events API
// both count a payload in busy, acknowledge it (a view_submission only
// once the bot has answered: see acker), and hand it here.

// inbox delivers normalised events to the bot's handler, in order per
// user, under the context of Run.
type inbox struct {
	p *Platform
	h bot.Handler
	q *bot.Lanes
	// unreadable says why the payload of the event being delivered
	// cannot be taken as its author wrote it (bot.Unreadable); the event
	// is then refused with that reason.
	unreadable string
}

// reading is in for the event whose JSON payload is raw.
func (in inbox) reading(raw []byte) inbox {
	in.unreadable = bot.Unreadable(raw)
	return in
}

// readingText is in for a slash command sent as a form: only the bytes of
// its text can be unreadable (what looks like an escape there is text).
func (in inbox) readingText(text string) inbox {
	if !utf8.ValidString(text) {
		in.unreadable = bot.Unreadable([]byte(text))
	}
	return in
}

func (in inbox) eventsAPI(ctx context.Context, e slackevents.EventsAPIEvent) {
	var ev *bot.Event
	if m, ok := e.InnerEvent.Data.(*slackevents.MessageEvent); ok && e.Type == slackevents.CallbackEvent {
		ev = messageEvent(m, in.p.identity())
	}
	in.deliver(ctx, ev)
}

// interaction delivers a click or a submitted modal. a, for a
// view_submission, is its pending acknowledgement: Reply uses it, and it
// is sent plainly at the latest when the handler returns.
func (in inbox) interaction(ctx context.Context, cb slack.InteractionCallback, a *acker) {
	ev := interactionEvent(cb)
	if ev != nil && a != nil {
		if o, ok := ev.Native.(origin); ok {
			o.ack = a
			ev.Native = o
		}
	}
	in.deliverAck(ctx, ev, a)
}

func (in inbox) command(ctx context.Context, c slack.SlashCommand) {
	in.p.names.put(c.ChannelID, c.ChannelName)
	in.deliver(ctx, commandEvent(c))
}

// deliver completes ev (the user's name and rights; a command's table
// thread) and passes it to the handler, after the user's earlier events.
// It ends the payload's count in busy, which the transport started.
func (in inbox) deliver(ctx context.Context, ev *bot.Event) { in.deliverAck(ctx, ev, nil) }

// deliverAck is deliver for an event whose acknowledgement a (nil when
// acknowledged already) waits for its handler: a is finished, acking
// plainly if the bot did not answer, before the count in busy ends.
func (in inbox) deliverAck(ctx context.Context, ev *bot.Event, a *acker) {
	if ev == nil {
		a.finish()
		in.p.busy.done()
		return
	}
	ev.Platform = in.p.Name()
	if in.q.Do(ev.User.ID, func() {
		defer in.p.busy.done()
		defer a.finish()
		if ctx.Err() != nil {
			return
		}
		if in.unreadable != "" {
			in.refuseUnreadable(ctx, ev)
			return
		}
		in.p.enrich(ctx, ev)
		ev.Strip() // what people's clients do not show goes at the edge
		in.p.route(ctx, ev)
		in.h(ctx, ev)
	}) {
		return
	}
	if !in.q.Refuse(ev.User.ID, func() { in.refuse(ctx, ev, a) }) {
		a.finish()
		in.p.busy.done()
	}
}

// refuse tells ev's user that ev was not queued: too many of their events
// are waiting.
func (in inbox) refuse(ctx context.Context, ev *bot.Event, a *acker) {
	defer in.p.busy.done()
	defer a.finish()
	in.p.log.Warn("event refused: the user's queue is full", "user", ev.User.ID, "kind", ev.Kind)
	if ctx.Err() != nil {
		return
	}
	if err := in.p.Reply(ctx, ev, bot.TryAgain()); err != nil {
		in.p.log.Warn("reply to a refused event", "err", err)
	}
}

// refuseUnreadable tells ev's user that what they sent cannot be taken
// as they wrote it, and why; the service never sees it.
func (in inbox) refuseUnreadable(ctx context.Context, ev *bot.Event) {
	in.p.log.Warn("event refused: its payload cannot be read as written", "user", ev.User.ID, "kind", ev.Kind, "why", in.unreadable)
	if ev.User.Bot {
		return
	}
	if err := in.p.Reply(ctx, ev, bot.CannotRead(in.unreadable)); err != nil {
		in.p.log.Warn("reply to an unreadable event", "err", err)
	}
}

// enrich fills in the user's display name, admin rights and bot flag.
func (p *Platform) enrich(ctx context.Context, ev *bot.Event) {
	if ev.User.Bot || ev.User.ID == "" {
		return
	}
	u, err := p.users.get(ctx, ev.User.ID)
	if err != nil {
		p.log.Warn("user unknown; acting without name and rights", "user", ev.User.ID, "err", err)
		return
	}
	ev.User.Name, ev.User.Manager, ev.User.Bot = u.Name, u.Manager, u.Bot
}

// channelCommands run in the channel itself; the others are about a table.
var channelCommands = map[string]bool{"": true, "help": true, "start": true, "study": true}

// route points a table command typed in a channel at the channel's newest
// table thread, since Slack cannot run slash commands in threads.
func (p *Platform) route(ctx context.Context, ev *bot.Event) {
	if ev.Kind != bot.KindCommand || channelCommands[ev.Command] || ev.Options["table"] != "" || ev.Parent != "" {
		return
	}
	thread, ok, err := p.threads.newest(ctx, ev.Channel)
	if err != nil {
		p.log.Warn("find the channel's table thread", "channel", ev.Channel, "err", err)
	}
	if ok {
		ev.Parent, ev.Channel = ev.Channel, thread.String()
	}
}
