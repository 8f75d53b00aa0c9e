package discord_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// People of the permission tests, besides the suite's.
var (
	mallory = bottest.User{ID: "1004", Name: "Mallory"} // manages #other only
	eve     = bottest.User{ID: "1005", Name: "Eve"}     // administers another guild
	dan     = bottest.User{ID: "1006", Name: "Dan"}     // manages #general by a member overwrite
)

// IDs of the places of the permission tests.
const (
	otherChannel = "510" // #other in the suite's guild
	modsRole     = "811" // manages #other by an overwrite
	guild2       = "700"
	adminRole2   = "701"
	elsewhere    = "710" // a channel of guild2
)

// rightsServer is a fake Discord with Mallory, Eve and Dan in place.
func rightsServer(t *testing.T) *discordtest.Server {
	srv := discordtest.New(t, discordtest.Options{})
	srv.AddChannel(discordtest.GuildID, otherChannel, "other")
	srv.AddRole(discordtest.GuildID, discordtest.Role{ID: modsRole, Name: "other-mods"})
	srv.SetOverwrite(otherChannel, discordtest.Overwrite{ID: modsRole, Allow: discordgo.PermissionManageChannels})
	srv.AddMember(discordtest.GuildID, mallory, modsRole)
	srv.AddGuild(guild2, "Another guild")
	srv.AddRole(guild2, discordtest.Role{ID: adminRole2, Name: "admins", Permissions: discordgo.PermissionAdministrator})
	srv.AddChannel(guild2, elsewhere, "elsewhere")
	srv.AddMember(guild2, eve, adminRole2)
	srv.AddMember(discordtest.GuildID, dan)
	srv.SetOverwrite(discordtest.ChannelID, discordtest.Overwrite{ID: dan.ID, Member: true, Allow: discordgo.PermissionManageChannels})
	return srv
}

// TestMayManageComputesThePermissionsOfTheChannel asks the adapter about
// members and channels, over the fake's roles and overwrites: a thread has
// its parent's permissions, a role's or member's overwrite counts in its
// channel only, and a guild's administrator is nobody in another guild.
func TestMayManageComputesThePermissionsOfTheChannel(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := rightsServer(t)
	p := discord.New(srv.Config(), testLogger(t))
	run(t, srv, p, func(context.Context, *bot.Event) {})
	thread, err := p.StartThread(ctx, srv.Channel(), "rights")
	must(t, err)
	srv.AddMember(discordtest.GuildID, bottest.Alice, discordtest.ModeratorRoleID)
	cases := []struct {
		who     bottest.User
		channel string
		want    bool
	}{
		{bottest.Alice, thread, true}, // the moderators role
		{mallory, otherChannel, true}, // the overwrite of her role
		{mallory, srv.Channel(), false},
		{mallory, thread, false},
		{dan, thread, true}, // the member overwrite on the thread's parent
		{dan, otherChannel, false},
		{eve, elsewhere, true}, // an administrator of guild2
		{eve, thread, false},   // not a member of this guild
		{bottest.Bob, thread, false},
	}
	for _, c := range cases {
		got, err := p.MayManage(ctx, c.channel, c.who.ID)
		if err != nil || got != c.want {
			t.Errorf("MayManage(%s, %s) = %v, %v; want %v", c.channel, c.who.Name, got, err, c.want)
		}
	}
}

var startedRe = regexp.MustCompile(`Table (t[0-9a-f]+) (?:is set up|started)`)

// TestManagersElsewhereCannotStopOrExport has people who may manage
// another channel (Mallory) or administer another guild (Eve) try to stop
// Alice's table, export it with names, close or extend its phase, from
// where they have those rights and from the table's thread: all are
// refused, and the table goes on. Dan, who may manage the table's
// channel, can close its phase and stop it.
func TestManagersElsewhereCannotStopOrExport(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := rightsServer(t)
	startService(t, discord.New(srv.Config(), testLogger(t)))
	waitUntil(t, srv, "the bot to connect", func() bool { return srv.Connected() && srv.Registered() })
	must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "start", map[string]string{"topic": "Guarded", "agents": "none"}))
	m := startedRe.FindStringSubmatch(lastText(srv, bottest.Alice))
	if m == nil {
		t.Fatalf("no table started: %+v", srv.Private(bottest.Alice))
	}
	table, thread := m[1], srv.Threads(srv.Channel())[0]
	must(t, srv.Command(ctx, mallory, thread, "begin", nil))
	if got := lastText(srv, mallory); !contains(got, "only whoever started this table, or someone who may manage tables, can start it") {
		t.Errorf("Mallory's begin: told %q", got)
	}
	must(t, srv.Command(ctx, bottest.Alice, thread, "begin", nil))
	waitPost(t, srv, thread, "**Round 1 of 2: message")

	attempts := []struct {
		who     bottest.User
		channel string
		command string
		opts    map[string]string
		want    string
	}{
		{mallory, otherChannel, "stop", map[string]string{"table": table}, "is not in this channel"},
		{mallory, thread, "stop", nil, "only whoever started this table"},
		{mallory, otherChannel, "export", map[string]string{"table": table, "names": "keep"}, "is not in this channel"},
		{mallory, thread, "export", map[string]string{"names": "keep"}, "only whoever started this table can export it with names"},
		{eve, elsewhere, "stop", map[string]string{"table": table}, "is not in this channel"},
		{eve, elsewhere, "export", map[string]string{"table": table, "names": "keep"}, "is not in this channel"},
		{mallory, otherChannel, "close", map[string]string{"table": table}, "is not in this channel"},
		{mallory, thread, "close", nil, "only whoever started this table"},
		{mallory, thread, "extend", nil, "only whoever started this table"},
		{eve, elsewhere, "close", map[string]string{"table": table}, "is not in this channel"},
	}
	for _, a := range attempts {
		must(t, srv.Command(ctx, a.who, a.channel, a.command, a.opts))
		if got := lastText(srv, a.who); !contains(got, a.want) {
			t.Errorf("%s's %s in %s: told %q, want %q", a.who.Name, a.command, a.channel, got, a.want)
		}
	}
	if _, ended := postStarting(srv, thread, "**The table has ended"); ended {
		t.Fatal("a refused stop ended the table")
	}
	if _, closed := postStarting(srv, thread, "**Round 1 of 2: proposal"); closed {
		t.Fatal("a refused close closed the message phase")
	}
	for _, u := range []bottest.User{mallory, eve} {
		if files := srv.Files(u); len(files) > 0 {
			t.Errorf("%s got %d files", u.Name, len(files))
		}
	}
	must(t, srv.Command(ctx, dan, thread, "close", nil))
	if got := lastText(srv, dan); !contains(got, "You closed the message phase") {
		t.Errorf("Dan, who may manage #general, closing the phase was told %q", got)
	}
	waitPost(t, srv, thread, "**Round 1 of 2: proposal")
	must(t, srv.Command(ctx, dan, thread, "stop", nil))
	if got := lastText(srv, dan); !contains(got, "The table is stopped") {
		t.Errorf("Dan, who may manage #general, was told %q", got)
	}
}

// TestForgedControlsAreRefused clicks, in table A's thread, a control
// naming table B (a modified client can send any custom_id), and names B
// in a command typed in A's thread: both are refused and seat nobody.
func TestForgedControlsAreRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	startService(t, discord.New(srv.Config(), testLogger(t)))
	waitUntil(t, srv, "the bot to connect", func() bool { return srv.Connected() && srv.Registered() })
	var ids []string
	for _, topic := range []string{"A", "B"} {
		must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "start", map[string]string{"topic": topic, "agents": "none"}))
		ids = append(ids, startedRe.FindStringSubmatch(lastText(srv, bottest.Alice))[1])
	}
	threadA := srv.Threads(srv.Channel())[0]
	intro := waitPost(t, srv, threadA, "**A")
	must(t, srv.Forge(ctx, bottest.Bob, threadA, intro.ID, "rt:"+ids[1]+":0:join"))
	if got := lastText(srv, bottest.Bob); !contains(got, "that control is for table "+ids[1]) {
		t.Errorf("the forged control: Bob was told %q", got)
	}
	must(t, srv.Command(ctx, bottest.Bob, threadA, "join", map[string]string{"table": ids[1]}))
	if got := lastText(srv, bottest.Bob); !contains(got, "is not in this channel") {
		t.Errorf("the command naming B in A's thread: Bob was told %q", got)
	}
	if privately(srv, bottest.Bob, "You joined") {
		t.Error("Bob was seated")
	}
}

// lastText is the last thing u was shown privately.
func lastText(srv *discordtest.Server, u bottest.User) string {
	priv := srv.Private(u)
	if len(priv) == 0 {
		return ""
	}
	return priv[len(priv)-1].Text
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
