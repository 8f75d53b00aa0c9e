package discord_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestStartOptionsOverTheGateway starts a table with the start options
// of /roundtable start as Discord sends them (integers for seats and
// people): it waits until its two seats are taken, by Alice and then Bob,
// and starts by itself; the Facilitator's vote is off unless asked for.
func TestStartOptionsOverTheGateway(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	startService(t, discord.New(srv.Config(), testLogger(t)))
	waitUntil(t, srv, "the bot to connect", func() bool { return srv.Connected() && srv.Registered() })
	must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "start",
		map[string]string{"topic": "Gathered", "agents": "none", "start": "full", "seats": "2", "people": "2", "facilitator_votes": "no"}))
	if got := lastText(srv, bottest.Alice); !strings.Contains(got, "is set up") {
		t.Fatalf("Alice was told %q", got)
	}
	thread := srv.Threads(srv.Channel())[0]
	intro := waitPost(t, srv, thread, "**Gathered")
	if !strings.Contains(intro.Text, "It starts by itself when its 2 seats are taken (1 taken now)") || !strings.Contains(intro.Text, "at least 2 people") {
		t.Errorf("the intro does not say how the table starts: %q", intro.Text)
	}
	must(t, srv.Click(ctx, bottest.Bob, thread, intro.ID, intro.Controls[0].ID))
	waitPost(t, srv, thread, "**The table starts**: its seats are taken.")
	waitPost(t, srv, thread, "**Round 1 of")
}
