package discord_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestFullChannelQueueTellsUserToTryAgain holds a channel's first event
// in the service while two more arrive with a queue of one: the second
// waits its turn, the third is refused at once with an ephemeral "try
// again", and the service never sees it.
func TestFullChannelQueueTellsUserToTryAgain(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	discord.SetQueueDepth(p, 1)
	release, started, handled := make(chan struct{}), make(chan struct{}, 1), make(chan struct{}, 2)
	rec := &recorder{}
	run(t, srv, p, func(ctx context.Context, ev *bot.Event) {
		rec.handle(ctx, ev)
		if ev.User.ID == bottest.Alice.ID {
			started <- struct{}{}
			<-release
		}
		if err := p.Reply(ctx, ev, bot.Reply{Text: "handled", Ephemeral: true}); err != nil {
			t.Errorf("reply: %v", err)
		}
		handled <- struct{}{}
	})
	errs := make(chan error, 2)
	go func() { errs <- srv.Command(ctx, bottest.Alice, srv.Channel(), "status", nil) }()
	<-started
	sent := srv.Stats().Dispatches
	go func() { errs <- srv.Command(ctx, bottest.Bob, srv.Channel(), "status", nil) }()
	// One gateway connection: Carol's dispatch arrives after Bob's.
	waitUntil(t, srv, "Bob's interaction", func() bool { return srv.Stats().Dispatches > sent })
	must(t, srv.Command(ctx, bottest.Carol, srv.Channel(), "status", nil)) // answered at once
	if !sawText(srv.Private(bottest.Carol), bot.TryAgainText) {
		t.Errorf("Carol saw %+v, want %q", srv.Private(bottest.Carol), bot.TryAgainText)
	}
	close(release)
	for range 2 {
		must(t, <-errs)
		<-handled // the fake has the answer before the client has read the response
	}
	for i, ev := range rec.all() {
		if want := []string{bottest.Alice.ID, bottest.Bob.ID}[i]; ev.User.ID != want {
			t.Errorf("event %d is from %q, want %q", i, ev.User.ID, want)
		}
	}
	if len(rec.all()) != 2 || !sawText(srv.Private(bottest.Bob), "handled") {
		t.Errorf("the service saw %d events and Bob %+v; want Alice's and Bob's handled", len(rec.all()), srv.Private(bottest.Bob))
	}
}

func sawText(pv []bottest.Private, text string) bool {
	for _, p := range pv {
		if p.Text == text {
			return true
		}
	}
	return false
}
