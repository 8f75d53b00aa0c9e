package slack

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/bot"
)

// Post implements bot.Platform: chat.postMessage in the channel or thread,
// paced per channel. A text past one message's limits becomes several
// messages, posted together in order; the ID is the first one's.
//
// A keyed post's parts are marked with its key; one that may have got
// through already is first looked for, and only its missing parts are
// posted (dedupe.go).
func (p *Platform) Post(ctx context.Context, channel string, m bot.Message) (string, error) {
	where := parseRef(channel)
	out := outgoing{key: m.Key}
	if m.Key != "" && m.MaybeSent {
		have, err := p.earlier(ctx, where, m.Key)
		if err != nil {
			return "", fmt.Errorf("slack post in %s: look for an earlier attempt: %w", channel, err)
		}
		out.have = have
	}
	ts, err := p.postParts(ctx, where, renderMessage(m), m.As, out)
	if err != nil {
		return "", fmt.Errorf("slack post in %s: %w", channel, p.refused(channel, err))
	}
	return ref{Channel: where.Channel, TS: ts}.String(), nil
}

// outgoing says how the parts of a post are marked: with a post's key
// (each part with its number), or with fixed metadata; have are the
// parts already in the channel, by number.
type outgoing struct {
	key  string
	meta []slack.MsgOption
	have map[int]string
}

// options are part i's extra options.
func (o outgoing) options(i int) []slack.MsgOption {
	if o.key == "" {
		return o.meta
	}
	return append([]slack.MsgOption{keyMetadata(o.key, i)}, o.meta...)
}

// postParts posts parts in where's channel under one hold of its lane and
// returns the first part's ts; parts out.have holds already are not
// posted again. When a later part fails, the first one stands (the bot
// must not post it twice) and the failure is logged.
func (p *Platform) postParts(ctx context.Context, where ref, parts []part, as *bot.Persona, out outgoing) (string, error) {
	lane, err := p.pace.acquire(ctx, where.Channel)
	if err != nil {
		return "", err
	}
	defer lane.release()
	var first string
	var rest []string
	for i, pt := range parts {
		ts, posted := out.have[i]
		if !posted {
			ts, err = p.postPart(ctx, lane, where, pt, as, out.options(i))
		}
		if err == nil {
			p.outcomes.posted(where, out.key, ts)
		}
		switch {
		case err != nil && i == 0:
			if out.key != "" {
				p.outcomes.failed(out.key, slackRefused(err)) // refused: nothing got through
			}
			return "", err
		case err != nil:
			p.log.Error("post the rest of a long message", "channel", where.String(), "part", i+1, "of", len(parts), "err", err)
			return first, nil
		case i == 0:
			first = ts
		default:
			rest = append(rest, ts)
		}
	}
	p.parts.put(ref{Channel: where.Channel, TS: first}, rest)
	return first, nil
}

// postPart posts one part through lane and returns its ts.
func (p *Platform) postPart(ctx context.Context, l *lane, where ref, pt part, as *bot.Persona, extra []slack.MsgOption) (string, error) {
	opts := append(messageOptions(pt, as), extra...)
	if where.TS != "" {
		opts = append(opts, slack.MsgOptionTS(where.TS))
	}
	var ts string
	err := l.send(ctx, func(ctx context.Context) (err error) {
		_, ts, err = p.api.PostMessageContext(ctx, where.Channel, opts...)
		return err
	})
	return ts, err
}

// messageOptions are a part's text and blocks, under a persona's name and
// avatar when an agent speaks (chat:write.customize).
func messageOptions(pt part, as *bot.Persona) []slack.MsgOption {
	opts := []slack.MsgOption{slack.MsgOptionText(pt.text, false), slack.MsgOptionBlocks(pt.blocks...)}
	if as != nil {
		opts = append(opts, slack.MsgOptionUsername(as.Name))
		if as.Avatar != "" {
			opts = append(opts, slack.MsgOptionIconURL(as.Avatar))
		}
	}
	return opts
}

// Edit implements bot.Platform: chat.update of the message (and of the
// later parts of a split message that this process posted; extra parts
// are deleted, missing ones posted after).
func (p *Platform) Edit(ctx context.Context, channel, id string, m bot.Message) error {
	msg := parseRef(id)
	if msg.TS == "" {
		return fmt.Errorf("slack edit: %q is not a message ID", id)
	}
	parts := renderMessage(m)
	old := append([]string{msg.TS}, p.parts.get(msg)...)
	for i, ts := range old {
		if err := p.editPart(ctx, msg.Channel, ts, parts, i); err != nil {
			return fmt.Errorf("slack edit %s: %w", id, p.refused(channel, err))
		}
	}
	if len(parts) > len(old) {
		if _, err := p.postParts(ctx, parseRef(channel), parts[len(old):], m.As, outgoing{}); err != nil {
			return fmt.Errorf("slack edit %s: post the rest: %w", id, err)
		}
	}
	return nil
}

// editPart replaces the part at ts by parts[i], or deletes it when the new
// text has fewer parts.
func (p *Platform) editPart(ctx context.Context, channel, ts string, parts []part, i int) error {
	return p.pace.retry(ctx, func(ctx context.Context) error {
		if i >= len(parts) {
			_, _, err := p.api.DeleteMessageContext(ctx, channel, ts)
			return err
		}
		_, _, _, err := p.api.UpdateMessageContext(ctx, channel, ts, messageOptions(parts[i], nil)...)
		return err
	})
}

// StartThread implements bot.Platform: it posts the thread's root message
// in the channel, marked with roundtable's metadata, and returns
// "<channel>/<root ts>".
func (p *Platform) StartThread(ctx context.Context, channel, title string) (string, error) {
	where := ref{Channel: parseRef(channel).Channel}
	meta := slack.MsgOptionMetadata(slack.SlackMetadata{EventType: threadMetadata, EventPayload: map[string]any{}})
	ts, err := p.postParts(ctx, where, renderMessage(bot.Message{Text: title}), nil, outgoing{meta: []slack.MsgOption{meta}})
	if err != nil {
		return "", fmt.Errorf("slack start thread in %s: %w", channel, p.refused(channel, err))
	}
	thread := ref{Channel: where.Channel, TS: ts}
	p.threads.started(thread)
	p.outcomes.posted(thread, "", ts) // a search in the new thread starts at its root
	return thread.String(), nil
}

// Reply implements bot.Platform. Ephemeral replies go to the user where
// they acted (chat.postEphemeral, in the thread if there was one); a form
// opens a modal with the event's trigger ID; others are posted.
//
// The answer to a submitted modal acknowledges it first: with r.Fields,
// as errors under the modal's inputs (it stays open, and nothing else is
// shown); otherwise plainly (it closes) before the reply. When the
// acknowledgement went out already (the bot took too long), errors are
// shown as r.Text.
func (p *Platform) Reply(ctx context.Context, ev *bot.Event, r bot.Reply) error {
	o, ok := ev.Native.(origin)
	if !ok {
		where := parseRef(ev.Channel)
		o = origin{Channel: where.Channel, ThreadTS: where.TS}
	}
	if o.ack.refuse(r.Fields) {
		return nil
	}
	o.ack.plain()
	switch {
	case r.Form != nil:
		return p.openForm(ctx, ev, o, *r.Form)
	case r.Ephemeral:
		err := p.ephemeral(ctx, ev.User.ID, o, r.Text)
		if _, refused := bot.Refused(err); refused && o.ResponseURL != "" {
			return p.respond(ctx, o, r.Text) // the app may not post where the user acted
		}
		return err
	}
	_, err := p.Post(ctx, ev.Channel, bot.Message{Text: r.Text})
	return err
}

func (p *Platform) ephemeral(ctx context.Context, user string, o origin, text string) error {
	for _, pt := range renderMessage(bot.Message{Text: text}) {
		opts := messageOptions(pt, nil)
		if o.ThreadTS != "" {
			opts = append(opts, slack.MsgOptionTS(o.ThreadTS))
		}
		err := p.pace.retry(ctx, func(ctx context.Context) error {
			_, err := p.api.PostEphemeralContext(ctx, o.Channel, user, opts...)
			return err
		})
		if err != nil {
			return fmt.Errorf("slack ephemeral to %s in %s: %w", user, o.Channel, p.refused(o.Channel, err))
		}
	}
	return nil
}

// errNoTrigger is returned when a form answers an event that cannot open
// one (Slack opens modals only within 3 s of a click or a command).
var errNoTrigger = errors.New("slack: this event cannot open a form (no trigger_id)")

func (p *Platform) openForm(ctx context.Context, ev *bot.Event, o origin, f bot.Form) error {
	if o.TriggerID == "" {
		return errNoTrigger
	}
	view, err := renderModal(f, ref{Channel: o.Channel, TS: o.ThreadTS}.String())
	if err != nil {
		return err
	}
	if err := p.openView(ctx, o, view); err != nil {
		if errors.Is(err, errTriggerExpired) {
			if nerr := p.ephemeral(ctx, ev.User.ID, o, formTooLate); nerr != nil {
				p.log.Warn("tell the user the form did not open", "user", ev.User.ID, "err", nerr)
			}
		}
		return fmt.Errorf("slack views.open for %s: %w", ev.User.ID, err)
	}
	return nil
}

// errTriggerExpired is returned when Slack's rate limit outlasts the 3 s
// during which a trigger_id opens a modal: waiting would only get
// expired_trigger_id.
var errTriggerExpired = errors.New("rate limited past the trigger's life")

// formTooLate tells a user their form could not open.
const formTooLate = "Slack is busy and the form could not open in time; please press the button again."

// openView calls views.open, waiting out a 429 only when the retry still
// falls within the trigger's life.
func (p *Platform) openView(ctx context.Context, o origin, view slack.ModalViewRequest) error {
	at := time.Now() // when the next call happens, counting the waits
	for {
		_, err := p.api.OpenViewContext(ctx, o.TriggerID, view)
		d, limited := retryAfter(err)
		if !limited {
			return err
		}
		if at = at.Add(d); o.Expires.IsZero() || at.After(o.Expires) {
			return fmt.Errorf("%w (Retry-After %s)", errTriggerExpired, d)
		}
		if err := p.pace.wait(ctx, d); err != nil {
			return err
		}
		at = later(at, time.Now())
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
