package discord

import (
	"context"
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// threadArchiveMinutes is how long a quiet table thread stays open: a day.
const threadArchiveMinutes = 1440

// Post implements bot.Platform. A text over 2000 characters is posted in
// parts cut at line breaks or spaces, the controls on the last part; m.As
// posts through the channel's webhook under the agent's name and avatar.
// Rate limits are waited out by discordgo.
func (p *Platform) Post(ctx context.Context, channel string, m bot.Message) (string, error) {
	if m.Text == "" && len(m.Controls) == 0 {
		return "", errors.New("discord: post: the message is empty")
	}
	size := maxText
	if m.As != nil {
		size -= maxWebhookName + len(speakerFormat) // room to name the agent if webhooks are refused
	}
	parts := split(m.Text, size)
	rows := p.rows(marked(m.Controls, markFor(m.Key, len(parts)-1))) // on the last part (marker.go)
	var first string
	for i, part := range parts {
		var comps []discordgo.MessageComponent
		if i == len(parts)-1 {
			comps = rows
		}
		var id string
		err := p.reopening(ctx, channel, func() (err error) {
			id, err = p.send(ctx, channel, m, part, comps, i)
			return err
		})
		if err != nil {
			p.cannotPost(ctx, channel, err)
			return first, fmt.Errorf("discord: post part %d of %d in %s: %w", i+1, len(parts), channel, final(err))
		}
		if i == 0 {
			first = id
		}
	}
	return first, nil
}

// speakerFormat names an agent in a message the bot posts for it.
const speakerFormat = "**%s**: "

// send posts one part, as the bot or as an agent. When the bot may not
// use webhooks there, the agent's part is posted by the bot under the
// agent's name, and the channel is told once what is missing. A nonce
// makes a repeated send by the bot return the first message (nonce.go);
// a part that may have got through is looked for first (marker.go).
func (p *Platform) send(ctx context.Context, channel string, m bot.Message, text string, comps []discordgo.MessageComponent, i int) (string, error) {
	mark := markFor(m.Key, i)
	if as := m.As; as != nil {
		id, err := p.speak(ctx, channel, *as, spoken{text: text, comps: comps, mark: mark, maybeSent: m.MaybeSent && m.Key != ""})
		r, refused := bot.Refused(err)
		if !refused {
			return id, err
		}
		p.notice(ctx, channel, "webhooks:"+channel, "Agents speak through me here. "+r.Reason)
		text = fmt.Sprintf(speakerFormat, personaName(as.Name)) + text
	}
	if m.MaybeSent && m.Key != "" {
		self, _ := p.ids()
		if id, found, err := p.earlierPart(ctx, channel, sought{author: self, text: text, mark: mark}); err != nil || found {
			return id, err
		}
	}
	data := &discordgo.MessageSend{Content: text, Components: comps, AllowedMentions: noMentions()}
	if nonce := nonceFor(m.Key, i); nonce != "" {
		return p.sendWithNonce(ctx, channel, data, nonce)
	}
	msg, err := p.s.ChannelMessageSendComplex(channel, data, discordgo.WithContext(ctx))
	if err != nil {
		return "", p.refused(ctx, channel, p.sendPermission(channel), err)
	}
	return msg.ID, nil
}

// cannotPost tells a thread's parent channel, once, that the bot lacks a
// permission to post in the thread.
func (p *Platform) cannotPost(ctx context.Context, channel string, err error) {
	r, refused := bot.Refused(err)
	parent := p.knownParent(channel)
	if !refused || parent == "" {
		return
	}
	p.notice(ctx, parent, "post:"+channel, fmt.Sprintf("I cannot post in <#%s>. %s", channel, r.Reason))
}

// Edit implements bot.Platform: the message's text and controls are
// replaced; no controls removes them. A text over 2000 characters is
// clipped (an edit cannot add parts). Only the bot's own messages can be
// edited, not agents' webhook messages.
func (p *Platform) Edit(ctx context.Context, channel, id string, m bot.Message) error {
	text := clip(m.Text, maxText)
	rows := p.rows(marked(m.Controls, markFor(m.Key, 0))) // an edit keeps the post's mark (marker.go)
	if rows == nil {
		rows = []discordgo.MessageComponent{}
	}
	edit := &discordgo.MessageEdit{ID: id, Channel: channel, Content: &text, Components: &rows, AllowedMentions: noMentions()}
	err := p.reopening(ctx, channel, func() error {
		_, err := p.s.ChannelMessageEditComplex(edit, discordgo.WithContext(ctx))
		return err
	})
	if err != nil {
		return wrap(fmt.Sprintf("edit message %s in %s", id, channel), final(p.refused(ctx, channel, 0, err)))
	}
	return nil
}

// StartThread implements bot.Platform: a public thread that archives
// after a day without activity. Started from a thread, it opens under
// that thread's channel (threads do not nest).
func (p *Platform) StartThread(ctx context.Context, channel, title string) (string, error) {
	if parent := p.knownParent(channel); parent != "" {
		channel = parent
	}
	ch, err := p.s.ThreadStartComplex(channel, &discordgo.ThreadStart{Name: clip(orDefault(title, "roundtable"), maxThreadName),
		AutoArchiveDuration: threadArchiveMinutes, Type: discordgo.ChannelTypeGuildPublicThread}, discordgo.WithContext(ctx))
	if err != nil {
		return "", wrap("start thread in "+channel, final(p.refused(ctx, channel, discordgo.PermissionCreatePublicThreads, err)))
	}
	if ch.ParentID == "" {
		ch.ParentID = channel
	}
	p.learn(ch)
	return ch.ID, nil
}

// rows renders controls, logging what did not fit.
func (p *Platform) rows(controls []bot.Control) []discordgo.MessageComponent {
	rows, dropped := components(controls)
	if dropped > 0 {
		p.log.Warn("controls left out: a message holds five rows", "dropped", dropped)
	}
	for _, c := range controls {
		if len(c.Options) > maxSelectOptions {
			p.log.Warn("select options left out: a select holds 25", "control", c.ID, "dropped", len(c.Options)-maxSelectOptions)
		}
	}
	return rows
}
