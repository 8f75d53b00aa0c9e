package discord

import (
	"context"
	"errors"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// What a member may do in a channel, computed as Discord does from the
// guild's roles and the channel's permission overwrites (a thread has its
// parent's), fetched from the API when asked: never the permissions an
// interaction carries, which are those of the channel it was sent from.

var _ bot.ChannelRights = (*Platform)(nil)

// MayManage implements bot.ChannelRights: the member has Manage Channels
// or Administrator in channel (or owns its guild). Someone who is not a
// member of the channel's guild may not.
func (p *Platform) MayManage(ctx context.Context, channel, user string) (bool, error) {
	perms, err := p.permissions(ctx, channel, user)
	if err != nil {
		return false, err
	}
	return perms&managePerms != 0, nil
}

// permissions computes user's permissions in channel; 0 for someone who
// is not a member of its guild.
func (p *Platform) permissions(ctx context.Context, channel, user string) (int64, error) {
	ch, err := p.s.Channel(channel, discordgo.WithContext(ctx))
	if err != nil {
		return 0, wrap("look up channel "+channel, err)
	}
	if ch.IsThread() && ch.ParentID != "" {
		if ch, err = p.s.Channel(ch.ParentID, discordgo.WithContext(ctx)); err != nil {
			return 0, wrap("look up the parent of thread "+channel, err)
		}
	}
	g, err := p.s.Guild(ch.GuildID, discordgo.WithContext(ctx))
	if err != nil {
		return 0, wrap("look up guild "+ch.GuildID, err)
	}
	m, err := p.s.GuildMember(g.ID, user, discordgo.WithContext(ctx))
	if isCode(err, discordgo.ErrCodeUnknownMember) {
		return 0, nil
	}
	if err != nil {
		return 0, wrap("look up member "+user+" of guild "+g.ID, err)
	}
	return memberPermissions(g, ch, user, m.Roles), nil
}

// memberPermissions applies Discord's order: @everyone, the member's
// roles (Administrator grants all), then the channel's overwrites for
// @everyone, for the member's roles together, and for the member.
func memberPermissions(g *discordgo.Guild, ch *discordgo.Channel, user string, roles []string) int64 {
	if user == g.OwnerID {
		return discordgo.PermissionAll
	}
	has := map[string]bool{g.ID: true}
	for _, r := range roles {
		has[r] = true
	}
	var perms int64
	for _, r := range g.Roles {
		if has[r.ID] {
			perms |= r.Permissions
		}
	}
	if perms&discordgo.PermissionAdministrator != 0 {
		return discordgo.PermissionAll
	}
	for _, o := range ch.PermissionOverwrites {
		if o.Type == discordgo.PermissionOverwriteTypeRole && o.ID == g.ID {
			perms = perms&^o.Deny | o.Allow
		}
	}
	var allow, deny int64
	for _, o := range ch.PermissionOverwrites {
		if o.Type == discordgo.PermissionOverwriteTypeRole && o.ID != g.ID && has[o.ID] {
			allow, deny = allow|o.Allow, deny|o.Deny
		}
	}
	perms = perms&^deny | allow
	for _, o := range ch.PermissionOverwrites {
		if o.Type == discordgo.PermissionOverwriteTypeMember && o.ID == user {
			perms = perms&^o.Deny | o.Allow
		}
	}
	return perms
}

// isCode reports whether err is Discord's JSON error code.
func isCode(err error, code int) bool {
	var rest *discordgo.RESTError
	return errors.As(err, &rest) && rest.Message != nil && rest.Message.Code == code
}
