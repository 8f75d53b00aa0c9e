package slack

import (
	"context"
	"errors"
	"fmt"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
	"golang.org/x/sync/errgroup"

	"github.com/roundtable-ai/roundtable/bot"
)

// runSocket serves Socket Mode: slack-go keeps the WebSocket up (it
// reconnects on "disconnect" envelopes, missed pings and errors) while
// this loop drains its events, acknowledges every envelope (but a
// view_submission) at once and queues the payload for the handler.
func (p *Platform) runSocket(ctx context.Context, h bot.Handler, q *bot.Lanes) error {
	if p.cfg.AppToken == "" {
		return errors.New("slack: Socket Mode needs an app-level token (xapp-...)")
	}
	sm := socketmode.New(p.client)
	in := inbox{p: p, h: h, q: q}
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		err := sm.RunContext(gctx) // returns only with an error, ctx's own when it ends
		if gctx.Err() == nil {
			return fmt.Errorf("slack socket mode: %w", err)
		}
		return nil
	})
	g.Go(func() error {
		for {
			select {
			case <-gctx.Done():
				return nil
			case evt := <-sm.Events:
				p.onSocketEvent(ctx, sm, in, evt)
			}
		}
	})
	return g.Wait()
}

// onSocketEvent acknowledges an envelope and passes its payload on; the
// client's own events are logged. A view_submission is acknowledged only
// once the bot has answered it (see acker).
func (p *Platform) onSocketEvent(ctx context.Context, sm *socketmode.Client, in inbox, evt socketmode.Event) {
	switch evt.Type {
	case socketmode.EventTypeEventsAPI, socketmode.EventTypeInteractive, socketmode.EventTypeSlashCommand:
		p.busy.add() // before the ack: see busy
	}
	var a *acker
	if evt.Request != nil && evt.Request.EnvelopeID != "" {
		if isViewSubmission(evt) {
			a = p.socketAcker(ctx, sm, evt.Request.EnvelopeID)
		} else if err := sm.AckCtx(ctx, evt.Request.EnvelopeID, nil); err != nil {
			p.log.Warn("ack envelope", "type", evt.Type, "err", err)
		}
	}
	if evt.Request != nil {
		in = in.reading(evt.Request.Payload)
	}
	switch evt.Type {
	case socketmode.EventTypeEventsAPI:
		e, _ := evt.Data.(slackevents.EventsAPIEvent)
		in.eventsAPI(ctx, e)
	case socketmode.EventTypeInteractive:
		cb, _ := evt.Data.(slack.InteractionCallback)
		in.interaction(ctx, cb, a)
	case socketmode.EventTypeSlashCommand:
		c, ok := evt.Data.(slack.SlashCommand)
		if !ok {
			in.deliver(ctx, nil)
			return
		}
		in.command(ctx, c)
	case socketmode.EventTypeConnected, socketmode.EventTypeHello, socketmode.EventTypeConnecting:
		p.log.Debug("socket mode", "event", evt.Type)
	case socketmode.EventTypeConnectionError, socketmode.EventTypeIncomingError, socketmode.EventTypeErrorBadMessage,
		socketmode.EventTypeErrorWriteFailed:
		p.log.Warn("socket mode", "event", evt.Type, "err", socketError(evt.Data))
	case socketmode.EventTypeInvalidAuth:
		p.log.Error("socket mode: the app token was refused")
	}
}

// isViewSubmission reports whether evt is a submitted modal.
func isViewSubmission(evt socketmode.Event) bool {
	cb, ok := evt.Data.(slack.InteractionCallback)
	return ok && evt.Type == socketmode.EventTypeInteractive && cb.Type == slack.InteractionTypeViewSubmission
}

// socketAcker is the pending acknowledgement of the envelope id.
func (p *Platform) socketAcker(ctx context.Context, sm *socketmode.Client, id string) *acker {
	return newAcker(p.cfg.AckDeadline, func(resp *slack.ViewSubmissionResponse) {
		if err := sm.AckCtx(ctx, id, socketPayload(resp)); err != nil {
			p.log.Warn("ack view submission", "errors", resp != nil, "err", err)
		}
	})
}

// socketError extracts the error of a client event without printing its
// payload.
func socketError(data any) string {
	switch d := data.(type) {
	case *slack.ConnectionErrorEvent:
		return d.Error()
	case *slack.IncomingEventError:
		return d.Error()
	case *socketmode.ErrorBadMessage:
		return d.Cause.Error()
	case *socketmode.ErrorWriteFailed:
		return d.Cause.Error()
	}
	return fmt.Sprintf("%T", data)
}
