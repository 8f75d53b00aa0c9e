package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// Missing permissions. Discord refuses a call the bot lacks a permission
// for with 403 Missing Access (50001: it cannot see the channel) or
// Missing Permissions (50013), without saying which permission. The
// adapter knows what each call needs and computes what the bot holds in
// the channel, and returns a bot.Refusal that names what is missing: the
// service shows it to whoever caused the call, and a delivery worker does
// not retry it.

// permissionNames names the permissions the bot's calls need.
var permissionNames = []struct {
	bit  int64
	name string
}{
	{discordgo.PermissionViewChannel, "View Channel"},
	{discordgo.PermissionSendMessages, "Send Messages"},
	{discordgo.PermissionSendMessagesInThreads, "Send Messages in Threads"},
	{discordgo.PermissionCreatePublicThreads, "Create Public Threads"},
	{discordgo.PermissionManageWebhooks, "Manage Webhooks"},
	{discordgo.PermissionAttachFiles, "Attach Files"},
	{discordgo.PermissionReadMessageHistory, "Read Message History"},
}

// refused returns err as a bot.Refusal naming the permissions of need the
// bot lacks in channel when Discord refused for a missing permission, and
// err itself otherwise.
func (p *Platform) refused(ctx context.Context, channel string, need int64, err error) error {
	if !isCode(err, discordgo.ErrCodeMissingPermissions) && !isCode(err, discordgo.ErrCodeMissingAccess) {
		return err
	}
	need |= discordgo.PermissionViewChannel
	missing := need
	self, _ := p.ids()
	if have, perr := p.permissions(ctx, channel, self); perr == nil && need&^have != 0 {
		missing = need &^ have
	}
	return &bot.Refusal{Err: err, Reason: fmt.Sprintf("I lack the %s permission in <#%s>; ask someone who manages this server to grant it to me there.",
		permissionList(missing), channel)}
}

// final marks err permanent when Discord rejected the request itself
// (a 4xx other than 429: unknown channel, invalid body), which no retry
// changes; 5xx and network errors stay retryable.
func final(err error) error {
	var rest *discordgo.RESTError
	if err == nil || bot.Permanent(err) || !errors.As(err, &rest) || rest.Response == nil {
		return err
	}
	if code := rest.Response.StatusCode; code >= 400 && code < 500 && code != http.StatusTooManyRequests {
		return &bot.PermanentError{Err: err}
	}
	return err
}

// permissionList names the permissions of bits: "A", "A and B", "A, B and C".
func permissionList(bits int64) string {
	var names []string
	for _, pn := range permissionNames {
		if bits&pn.bit != 0 {
			names = append(names, pn.name)
		}
	}
	if len(names) == 0 {
		return "needed"
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// sendPermission is what posting in channel needs.
func (p *Platform) sendPermission(channel string) int64 {
	if p.knownParent(channel) != "" {
		return discordgo.PermissionSendMessagesInThreads
	}
	return discordgo.PermissionSendMessages
}

// notice tells a channel something once per key (a permission the bot
// lacks there), as the bot; a failure is only logged.
func (p *Platform) notice(ctx context.Context, channel, key, text string) {
	p.mu.Lock()
	seen := p.noticed[key]
	p.noticed[key] = true
	p.mu.Unlock()
	if seen {
		return
	}
	_, err := p.s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{Content: clip(text, maxText), AllowedMentions: noMentions()},
		discordgo.WithContext(ctx))
	if err != nil {
		p.log.Warn("cannot tell the channel", "channel", channel, "notice", text, "err", err)
	}
}
