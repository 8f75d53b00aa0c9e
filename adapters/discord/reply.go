package discord

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// tooLateForForm is shown when a form could not be opened because the
// interaction had to be deferred first (Discord opens modals only as the
// first response).
const tooLateForForm = "That took too long for Discord to open the form; please try again."

// interaction is an interaction being answered: Event.Native of the
// events it produced. Discord wants a first response within 3 seconds; a
// timer sends a deferred (ephemeral "thinking") one when the service has
// not answered in time, and later answers become follow-ups.
type interaction struct {
	p     *Platform
	i     *discordgo.Interaction
	timer *time.Timer

	mu       sync.Mutex
	acked    bool // a first response was sent
	deferred bool // it was the deferred one
}

// track starts the deferral timer of a new interaction.
func (p *Platform) track(ctx context.Context, i *discordgo.Interaction) *interaction {
	it := &interaction{p: p, i: i}
	it.timer = time.AfterFunc(p.ackAfter, func() {
		it.mu.Lock()
		defer it.mu.Unlock()
		if err := it.ack(ctx); err != nil {
			p.log.Warn("defer interaction", "err", err)
		}
	})
	return it
}

// handled runs once the service returned from the interaction's event.
func (it *interaction) handled() {
	it.timer.Stop()
}

// ack sends the deferred first response unless one was sent; the caller
// holds mu.
func (it *interaction) ack(ctx context.Context) error {
	if it.acked {
		return nil
	}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource,
		Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}}
	if err := it.p.s.InteractionRespond(it.i, resp, discordgo.WithContext(ctx)); err != nil {
		return wrap("defer interaction "+it.i.ID, err)
	}
	it.acked, it.deferred = true, true
	return nil
}

// Reply implements bot.Platform. It answers the interaction behind ev
// (a message, ephemeral or not, or a form as a modal); an event without
// one (a message in a channel) is answered by a post in its channel.
func (p *Platform) Reply(ctx context.Context, ev *bot.Event, r bot.Reply) error {
	it, ok := ev.Native.(*interaction)
	if !ok {
		if r.Form != nil {
			return errors.New("discord: reply: a form needs an interaction to open from")
		}
		_, err := p.Post(ctx, ev.Channel, bot.Message{Text: r.Text})
		return err
	}
	it.mu.Lock()
	defer it.mu.Unlock()
	if r.Form != nil {
		return it.openForm(ctx, *r.Form)
	}
	if r.Text == "" {
		return nil
	}
	return it.say(ctx, r.Text, r.Ephemeral, nil)
}

// openForm opens f as a modal, which must be the first response.
func (it *interaction) openForm(ctx context.Context, f bot.Form) error {
	if it.acked {
		it.p.log.Info("form not opened: the interaction was deferred", "form", f.ID)
		return it.say(ctx, tooLateForForm, true, nil)
	}
	data, dropped := modal(f)
	if dropped > 0 {
		it.p.log.Warn("form fields left out: a modal holds five", "form", f.ID, "dropped", dropped)
	}
	resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseModal, Data: data}
	if err := it.p.s.InteractionRespond(it.i, resp, discordgo.WithContext(ctx)); err != nil {
		return wrap("open form "+f.ID, err)
	}
	it.acked = true
	return nil
}

// say answers with text, in parts of at most 2000 characters: the first
// response if none was sent, follow-ups after it. files go with the last
// part. The caller holds mu.
func (it *interaction) say(ctx context.Context, text string, ephemeral bool, files []*discordgo.File) error {
	var flags discordgo.MessageFlags
	if ephemeral {
		flags = discordgo.MessageFlagsEphemeral
	}
	parts := split(text, maxText)
	for n, part := range parts {
		var fs []*discordgo.File
		if n == len(parts)-1 {
			fs = files
		}
		if err := it.send(ctx, part, flags, fs); err != nil {
			return err
		}
	}
	return nil
}

// send sends one part as the first response or a follow-up.
func (it *interaction) send(ctx context.Context, text string, flags discordgo.MessageFlags, files []*discordgo.File) error {
	if !it.acked {
		resp := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: text, Flags: flags, Files: files, AllowedMentions: noMentions()}}
		if err := it.p.s.InteractionRespond(it.i, resp, discordgo.WithContext(ctx)); err != nil {
			return wrap("answer interaction "+it.i.ID, err)
		}
		it.acked = true
		return nil
	}
	params := &discordgo.WebhookParams{Content: text, Flags: flags, Files: files, AllowedMentions: noMentions()}
	if _, err := it.p.s.FollowupMessageCreate(it.i, true, params, discordgo.WithContext(ctx)); err != nil {
		return wrap("follow up interaction "+it.i.ID, err)
	}
	return nil
}

// Upload implements bot.Uploader: the file comes as an ephemeral
// follow-up of the interaction behind ev, deferred first since uploading
// may outlast Discord's three seconds. Without an interaction the file is
// posted in ev's channel.
func (p *Platform) Upload(ctx context.Context, ev *bot.Event, name string, data []byte, note string) error {
	file := &discordgo.File{Name: name, ContentType: "application/octet-stream", Reader: bytes.NewReader(data)}
	it, ok := ev.Native.(*interaction)
	if !ok {
		_, err := p.s.ChannelMessageSendComplex(ev.Channel, &discordgo.MessageSend{Content: clip(note, maxText),
			Files: []*discordgo.File{file}, AllowedMentions: noMentions()}, discordgo.WithContext(ctx))
		if err != nil {
			err = final(p.refused(ctx, ev.Channel, p.sendPermission(ev.Channel)|discordgo.PermissionAttachFiles, err))
		}
		return wrap("upload "+name, err)
	}
	it.mu.Lock()
	defer it.mu.Unlock()
	if err := it.ack(ctx); err != nil {
		return err
	}
	return it.say(ctx, clip(note, maxText), true, []*discordgo.File{file})
}
