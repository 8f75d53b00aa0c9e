package discord_test

import (
	"context"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestArchivedThreadsAreUnarchived archives a table's thread, once with
// the THREAD_UPDATE Discord sends and once without (the bot missed it):
// the bot's edits, its posts and its agents' webhook posts still land,
// the thread open again.
func TestArchivedThreadsAreUnarchived(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	run(t, srv, p, func(context.Context, *bot.Event) {})
	thread, err := p.StartThread(ctx, srv.Channel(), "quiet table")
	must(t, err)
	id, err := p.Post(ctx, thread, bot.Message{Text: "Round 1", Controls: []bot.Control{{ID: "rt:t1:1:write", Kind: bot.Button, Label: "Write"}}})
	must(t, err)

	steps := []struct {
		name string
		do   func() error
	}{
		{"edit", func() error { return p.Edit(ctx, thread, id, bot.Message{Text: "Round 1 (closed)"}) }},
		{"post", func() error { _, err := p.Post(ctx, thread, bot.Message{Text: "Round 1 result"}); return err }},
		{"agent post", func() error {
			_, err := p.Post(ctx, thread, bot.Message{Text: "An agent speaks", As: &bot.Persona{Name: "Scribe"}})
			return err
		}},
	}
	for _, archive := range []struct {
		how string
		do  func(string)
	}{{"with THREAD_UPDATE", srv.ArchiveThread}, {"silently", srv.ArchiveThreadSilently}} {
		for _, st := range steps {
			archive.do(thread)
			if err := st.do(); err != nil {
				t.Fatalf("%s after archiving %s: %v", st.name, archive.how, err)
			}
			if srv.Archived(thread) {
				t.Errorf("%s after archiving %s: the thread is still archived", st.name, archive.how)
			}
		}
	}
	var texts []string
	for _, m := range srv.Messages(thread) {
		texts = append(texts, m.Author+": "+m.Text)
	}
	want := "bot: Round 1 (closed)|bot: Round 1 result|Scribe: An agent speaks|bot: Round 1 result|Scribe: An agent speaks"
	if got := strings.Join(texts, "|"); got != want {
		t.Errorf("the thread shows %q, want %q", got, want)
	}
}

// TestMissingPermissionsAreNamed takes permissions from the bot and checks
// that whoever is affected learns which one is missing: the person who
// starts a table where the bot may not make threads, and the channel when
// agents cannot speak through a webhook (they speak through the bot) or
// the bot may not post in the table's thread. Such failures are
// bot.Refusals, which a delivery worker does not retry.
func TestMissingPermissionsAreNamed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	startService(t, p)
	waitUntil(t, srv, "the bot to connect", func() bool { return srv.Connected() && srv.Registered() })
	botRole := discordtest.BotRoleID(discordtest.GuildID)

	srv.SetOverwrite(srv.Channel(), discordtest.Overwrite{ID: botRole, Deny: discordgo.PermissionCreatePublicThreads})
	must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "start", map[string]string{"topic": "No threads"}))
	if got := lastText(srv, bottest.Alice); !strings.Contains(got, "I lack the Create Public Threads permission in <#"+srv.Channel()+">") {
		t.Errorf("starting without Create Public Threads: Alice was told %q", got)
	}

	srv.SetOverwrite(srv.Channel(), discordtest.Overwrite{ID: botRole, Deny: discordgo.PermissionManageWebhooks})
	must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "start", map[string]string{"topic": "No webhooks", "rounds": "1"}))
	thread := srv.Threads(srv.Channel())[0]
	must(t, srv.Command(ctx, bottest.Alice, thread, "begin", nil))
	must(t, srv.Say(ctx, bottest.Alice, thread, "my message"))
	waitUntil(t, srv, "the agent's message through the bot", func() bool {
		_, ok := postStarting(srv, thread, "**Scribe**: ")
		return ok
	})
	if _, ok := postStarting(srv, thread, "Agents speak through me here. I lack the Manage Webhooks permission in <#"+srv.Channel()+">"); !ok {
		t.Errorf("the thread was not told about webhooks: %+v", srv.Posts(thread))
	}

	srv.SetOverwrite(srv.Channel(), discordtest.Overwrite{ID: botRole, Deny: discordgo.PermissionSendMessagesInThreads})
	_, err := p.Post(ctx, thread, bot.Message{Text: "cannot land"})
	if r, ok := bot.Refused(err); !ok || !strings.Contains(r.Reason, "Send Messages in Threads") {
		t.Fatalf("posting without Send Messages in Threads: %v; want a refusal naming it", err)
	}
	if _, ok := postStarting(srv, srv.Channel(), "I cannot post in <#"+thread+">. I lack the Send Messages in Threads permission"); !ok {
		t.Errorf("the channel was not told: %+v", srv.Posts(srv.Channel()))
	}
	if !bot.Permanent(err) {
		t.Errorf("a refusal is not permanent: %v", err)
	}
	if _, err := p.Post(ctx, "999", bot.Message{Text: "nowhere"}); err == nil || !bot.Permanent(err) {
		t.Errorf("posting in an unknown channel: %v; want a permanent error", err)
	}
}
