package discordtest

import (
	"net/http"
	"slices"
	"strconv"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// Guilds, roles, members and channel permission overwrites, so that
// permissions are computed as Discord computes them: the @everyone role,
// then the member's roles (Administrator grants everything), then the
// channel's overwrites for @everyone, the member's roles and the member.
// A thread has its parent channel's permissions. The bot itself is a
// member too: a REST call it lacks the permission for fails with 403
// Missing Access (50001, no View Channel) or Missing Permissions (50013).

// Permission bits the fake uses (Discord's values).
const (
	permAdministrator   = 1 << 3
	permManageChannels  = 1 << 4
	permView            = 1 << 10
	permSend            = 1 << 11
	permAttach          = 1 << 15
	permHistory         = 1 << 16
	permManageWebhooks  = 1 << 29
	permUseCommands     = 1 << 31
	permManageThreads   = 1 << 34
	permCreateThreads   = 1 << 35
	permSendInThreads   = 1 << 38
	permAll             = 1<<50 - 1
	permMember          = permView | permSend | permHistory | permUseCommands | permSendInThreads
	permBot             = permMember | permAttach | permManageWebhooks | permManageThreads | permCreateThreads
	errMissingAccess    = 50001
	errMissingPerms     = 50013
	errUnknownMember    = 10007
	errUnknownGuild     = 10004
	errThreadArchived   = 50083
	msgMissingAccess    = "Missing Access"
	msgMissingPerms     = "Missing Permissions"
	msgThreadIsArchived = "Thread is archived"
)

// ModeratorRoleID is the role of the default guild that may manage every
// channel; people with bottest.User.Manager get it when they first act.
const ModeratorRoleID = "801"

// Role is a guild role.
type Role struct {
	ID          string
	Name        string
	Permissions int64
}

// Overwrite is a channel's permission overwrite for a role (or @everyone,
// whose ID is the guild's) or, with Member, for one member.
type Overwrite struct {
	ID          string
	Member      bool
	Allow, Deny int64
}

// guild is a server: its roles and its members' roles.
type guild struct {
	ID, Name, Owner string
	roles           []Role
	members         map[string][]string // user ID → role IDs
}

func newGuild(id, name string) *guild {
	return &guild{ID: id, Name: name, Owner: "1",
		roles:   []Role{{ID: id, Name: "@everyone", Permissions: permMember}, {ID: BotRoleID(id), Name: BotName, Permissions: permBot}},
		members: map[string][]string{BotID: {BotRoleID(id)}}}
}

// BotRoleID is the bot's role in a guild: it may read, write, attach
// files, make threads and webhooks. An overwrite for it takes a
// permission from the bot in one channel.
func BotRoleID(guild string) string { return guild + "2" }

// AddGuild adds a guild the bot is in, whose @everyone may read and
// write, with no channel yet.
func (s *Server) AddGuild(id, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guilds[id] = newGuild(id, name)
}

// AddRole adds or replaces a role of a guild.
func (s *Server) AddRole(guildID string, r Role) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guilds[guildID]
	g.roles = upsert(g.roles, r, func(old Role) bool { return old.ID == r.ID })
}

// AddMember makes u a member of a guild with roles (replacing theirs).
func (s *Server) AddMember(guildID string, u bottest.User, roles ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.guilds[guildID].members[u.ID] = append([]string{}, roles...)
}

// AddChannel adds a text channel to a guild.
func (s *Server) AddChannel(guildID, id, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channels[id] = &channel{ID: id, Name: name, Guild: guildID}
}

// SetOverwrite adds or replaces an overwrite of a channel.
func (s *Server) SetOverwrite(channelID string, o Overwrite) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[channelID]
	ch.Overwrites = upsert(ch.Overwrites, o, func(old Overwrite) bool { return old.ID == o.ID && old.Member == o.Member })
}

// upsert replaces the element of list that is the same as v, or appends v.
func upsert[T any](list []T, v T, same func(T) bool) []T {
	if i := slices.IndexFunc(list, same); i >= 0 {
		list[i] = v
		return list
	}
	return append(list, v)
}

// guildOf returns the guild of a channel; the caller holds mu.
func (s *Server) guildOf(ch *channel) *guild {
	if ch.Guild == "" {
		return s.guilds[GuildID]
	}
	return s.guilds[ch.Guild]
}

// join makes u a member of the channel's guild when it is not one yet, as
// the moderator role for managers of the default guild; the caller holds mu.
func (s *Server) join(ch *channel, u bottest.User) *guild {
	g := s.guildOf(ch)
	if _, ok := g.members[u.ID]; !ok {
		var roles []string
		if u.Manager && g.ID == GuildID {
			roles = []string{ModeratorRoleID}
		}
		g.members[u.ID] = roles
	}
	return g
}

// perms computes user's permissions in a channel (a thread's are its
// parent's); 0 for a non-member. The caller holds mu.
func (s *Server) perms(ch *channel, user string) int64 {
	if ch.Parent != "" {
		ch = s.channels[ch.Parent]
	}
	g := s.guildOf(ch)
	roles, member := g.members[user]
	switch {
	case !member:
		return 0
	case user == g.Owner:
		return permAll
	}
	var p int64
	for _, r := range g.roles {
		if r.ID == g.ID || slices.Contains(roles, r.ID) {
			p |= r.Permissions
		}
	}
	if p&permAdministrator != 0 {
		return permAll
	}
	return overwrite(p, ch.Overwrites, g.ID, user, roles)
}

// overwrite applies a channel's overwrites in Discord's order.
func overwrite(p int64, ows []Overwrite, everyone, user string, roles []string) int64 {
	for _, o := range ows {
		if !o.Member && o.ID == everyone {
			p = p&^o.Deny | o.Allow
		}
	}
	var allow, deny int64
	for _, o := range ows {
		if !o.Member && slices.Contains(roles, o.ID) {
			allow, deny = allow|o.Allow, deny|o.Deny
		}
	}
	p = p&^deny | allow
	for _, o := range ows {
		if o.Member && o.ID == user {
			p = p&^o.Deny | o.Allow
		}
	}
	return p
}

// botMay answers 403 as Discord does, and returns false, unless the bot
// has need in ch; the caller holds mu.
func (s *Server) botMay(w http.ResponseWriter, ch *channel, need int64) bool {
	p := s.perms(ch, BotID)
	switch {
	case p&permView == 0:
		apiError(w, http.StatusForbidden, errMissingAccess, msgMissingAccess)
		return false
	case p&need != need:
		apiError(w, http.StatusForbidden, errMissingPerms, msgMissingPerms)
		return false
	}
	return true
}

// sendPerm is what posting in ch needs.
func sendPerm(ch *channel) int64 {
	if ch.Parent != "" {
		return permSendInThreads
	}
	return permSend
}

// guildOf404 returns the request's guild, or answers 404 Unknown Guild
// and returns nil; the caller holds mu.
func (s *Server) guildOf404(w http.ResponseWriter, r *http.Request) *guild {
	g := s.guilds[r.PathValue("guild")]
	if g == nil {
		apiError(w, http.StatusNotFound, errUnknownGuild, "Unknown Guild")
	}
	return g
}

func (s *Server) getGuild(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildOf404(w, r)
	if g == nil {
		return
	}
	roles := []map[string]any{}
	for i, ro := range g.roles {
		roles = append(roles, map[string]any{"id": ro.ID, "name": ro.Name, "permissions": strconv.FormatInt(ro.Permissions, 10),
			"position": i, "color": 0, "hoist": false, "managed": false, "mentionable": false})
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": g.ID, "name": g.Name, "owner_id": g.Owner, "roles": roles})
}

func (s *Server) getMember(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.guildOf404(w, r)
	if g == nil {
		return
	}
	roles, ok := g.members[r.PathValue("user")]
	if !ok {
		apiError(w, http.StatusNotFound, errUnknownMember, "Unknown Member")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": map[string]any{"id": r.PathValue("user"), "username": "member"},
		"roles": append([]string{}, roles...), "joined_at": "2026-01-01T00:00:00Z", "deaf": false, "mute": false, "flags": 0})
}

func overwritesJSON(ows []Overwrite) []map[string]any {
	out := []map[string]any{}
	for _, o := range ows {
		typ := 0
		if o.Member {
			typ = 1
		}
		out = append(out, map[string]any{"id": o.ID, "type": typ,
			"allow": strconv.FormatInt(o.Allow, 10), "deny": strconv.FormatInt(o.Deny, 10)})
	}
	return out
}
