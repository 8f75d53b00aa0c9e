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

// TestMaybeSentPostsAreFoundNotRepeated: the bot's post and an agent's
// webhook post, sent again with MaybeSent to a fake that has forgotten
// their nonces, return the first posts' IDs and post nothing; a person's
// paste of a post's text does not pass for it.
func TestMaybeSentPostsAreFoundNotRepeated(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{ForgetNonces: true})
	p := discord.New(srv.Config(), testLogger(t))
	run(t, srv, p, func(context.Context, *bot.Event) {})
	thread, err := p.StartThread(ctx, srv.Channel(), "a table")
	must(t, err)
	for _, m := range []bot.Message{
		{Text: "**Round 1 result**", Key: "t1/r1/result"},
		{Text: "Scribe here", Key: "t1/r1/msg/7", As: &bot.Persona{Name: "Scribe"}},
	} {
		first, err := p.Post(ctx, thread, m)
		must(t, err)
		before := len(srv.Messages(thread))
		m.MaybeSent = true
		again, err := p.Post(ctx, thread, m)
		must(t, err)
		if again != first || len(srv.Messages(thread)) != before {
			t.Errorf("%q sent again as %s (first %s): %d messages, want %d", m.Text, again, first, len(srv.Messages(thread)), before)
		}
	}

	raw := srv.Messages(thread)[0].Text // the bot's post
	other, err := p.StartThread(ctx, srv.Channel(), "another table")
	must(t, err)
	must(t, srv.Say(ctx, bottest.Bob, other, raw))
	id, err := p.Post(ctx, other, bot.Message{Text: "**Round 1 result**", Key: "t1/r1/result", MaybeSent: true})
	must(t, err)
	if msgs := srv.Messages(other); len(msgs) != 2 || msgs[1].ID != id || msgs[1].Author != "bot" {
		t.Errorf("after Bob pasted the post: %+v, want Bob's paste and the bot's post %s", msgs, id)
	}
}

// TestWithoutReadHistoryAPostIsRepeatedNotLost: a bot that may not read a
// channel's history cannot look for an earlier attempt: the post is sent
// again (a repeat is better than a loss), and the refusal logged.
func TestWithoutReadHistoryAPostIsRepeatedNotLost(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{ForgetNonces: true})
	log, logs := testLogs(t)
	p := discord.New(srv.Config(), log)
	run(t, srv, p, func(context.Context, *bot.Event) {})
	srv.SetOverwrite(srv.Channel(), discordtest.Overwrite{ID: discordtest.BotID, Member: true, Deny: discordgo.PermissionReadMessageHistory})
	m := bot.Message{Text: "**The table has ended**", Key: "t1/end", MaybeSent: true}
	_, err := p.Post(ctx, srv.Channel(), m)
	must(t, err)
	if n := len(srv.Messages(srv.Channel())); n != 1 {
		t.Errorf("%d messages, want the post", n)
	}
	if !strings.Contains(logs.String(), "Read Message History") {
		t.Errorf("the missing permission was not logged:\n%s", logs.String())
	}
}
