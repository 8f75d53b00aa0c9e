package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// webhookName names the one webhook the bot keeps per channel. After a
// restart the bot finds it again by this name instead of making another.
const webhookName = "roundtable"

// spoken is one part an agent says: its text and controls, its mark
// (marker.go), and whether an earlier attempt may have got through.
type spoken struct {
	text      string
	comps     []discordgo.MessageComponent
	mark      string
	maybeSent bool
}

// speak posts one part under an agent's name through the webhook of the
// channel (of the thread's parent, into the thread, when channel is a
// thread). A webhook deleted behind the bot's back is made again, once.
// A part that may have got through already is looked for first.
func (p *Platform) speak(ctx context.Context, channel string, as bot.Persona, part spoken) (string, error) {
	parent, err := p.parentOf(ctx, channel)
	if err != nil {
		return "", err
	}
	home, thread := channel, ""
	if parent != "" {
		home, thread = parent, channel
	}
	name := personaName(as.Name)
	params := &discordgo.WebhookParams{Content: part.text, Username: name, AvatarURL: as.Avatar,
		Components: part.comps, AllowedMentions: noMentions()}
	for attempt := 0; ; attempt++ {
		wh, err := p.webhook(ctx, home)
		if err != nil {
			return "", err
		}
		if part.maybeSent && attempt == 0 {
			if id, found, err := p.earlierPart(ctx, channel, sought{author: wh.ID, name: name, text: part.text, mark: part.mark}); err != nil || found {
				return id, err
			}
		}
		msg, err := p.executeWebhook(ctx, wh, thread, params)
		if err == nil {
			return msg.ID, nil
		}
		if attempt > 0 || !notFound(err) {
			return "", wrap("execute webhook of "+home, err)
		}
		p.forgetWebhook(home, wh.ID)
	}
}

// executeWebhook posts params through wh, into thread if set, and waits
// for the message. It is discordgo's WebhookThreadExecute but for the
// rate-limit bucket: discordgo keys it by the whole URL, ?thread_id=
// included, so posts into several threads of a channel would each seem to
// have a bucket of their own, while Discord counts one per webhook, and a
// burst across threads would meet 429s the client could have waited out.
func (p *Platform) executeWebhook(ctx context.Context, wh *discordgo.Webhook, thread string, params *discordgo.WebhookParams) (*discordgo.Message, error) {
	bucket := discordgo.EndpointWebhookToken(wh.ID, wh.Token)
	q := url.Values{"wait": {"true"}}
	if thread != "" {
		q.Set("thread_id", thread)
	}
	body, err := p.s.RequestWithBucketID(http.MethodPost, bucket+"?"+q.Encode(), params, bucket, discordgo.WithContext(ctx))
	if err != nil {
		return nil, err
	}
	var m discordgo.Message
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("decode the webhook's message: %w", err)
	}
	return &m, nil
}

// webhook returns the channel's roundtable webhook: cached, found among
// the channel's webhooks, or made.
func (p *Platform) webhook(ctx context.Context, channel string) (*discordgo.Webhook, error) {
	p.hookMu.Lock()
	defer p.hookMu.Unlock()
	p.mu.Lock()
	wh := p.webhooks[channel]
	p.mu.Unlock()
	if wh != nil {
		return wh, nil
	}
	hooks, err := p.s.ChannelWebhooks(channel, discordgo.WithContext(ctx))
	if err != nil {
		return nil, wrap("list webhooks of "+channel, p.refused(ctx, channel, discordgo.PermissionManageWebhooks, err))
	}
	wh = p.ours(hooks)
	if wh == nil {
		if wh, err = p.s.WebhookCreate(channel, webhookName, "", discordgo.WithContext(ctx)); err != nil {
			return nil, wrap("create webhook in "+channel, p.refused(ctx, channel, discordgo.PermissionManageWebhooks, err))
		}
		p.log.Info("created webhook", "channel", channel)
	}
	p.mu.Lock()
	p.webhooks[channel] = wh
	p.mu.Unlock()
	return wh, nil
}

// ours picks the bot's own webhook among a channel's.
func (p *Platform) ours(hooks []*discordgo.Webhook) *discordgo.Webhook {
	_, app := p.ids()
	for _, wh := range hooks {
		if wh.Name == webhookName && wh.Token != "" && (app == "" || wh.ApplicationID == "" || wh.ApplicationID == app) {
			return wh
		}
	}
	return nil
}

func (p *Platform) forgetWebhook(channel, id string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if wh := p.webhooks[channel]; wh != nil && wh.ID == id {
		delete(p.webhooks, channel)
	}
}

func notFound(err error) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Response != nil && rest.Response.StatusCode == http.StatusNotFound
}

// personaName makes an agent's name acceptable as a webhook username:
// Discord refuses names containing "discord" or "clyde", so a zero-width
// space breaks them up.
func personaName(name string) string {
	reserved := regexp.MustCompile(`(?i)discord|clyde`)
	name = reserved.ReplaceAllStringFunc(orDefault(name, "agent"), func(s string) string { return s[:1] + "\u200b" + s[1:] })
	return clip(name, maxWebhookName)
}
