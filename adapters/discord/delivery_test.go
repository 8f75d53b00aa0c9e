package discord_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// TestLostAnswersDoNotDuplicatePosts runs a table while the fake Discord
// takes the bot's posts and edits but drops the connection before it
// answers, from the intro on. The bot sends them again with the same enforced nonce, and once
// the outage ends every post the log implies is in the thread once.
func TestLostAnswersDoNotDuplicatePosts(t *testing.T) {
	srv := discordtest.New(t, discordtest.Options{})
	h := discordtest.NewHarness(srv, testLogger(t))
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- bottest.Service(h.Platform(), db, clock, nil).Run(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("service: %v", err)
		}
	}()
	waitUntil(t, srv, "the bot to connect", func() bool { return srv.Connected() && srv.Registered() })
	srv.LoseAnswers(true)
	srv.SetOutage(true) // from the intro on
	opts := map[string]string{"topic": "Lost", "rounds": "2", "agents": "none"}
	if err := h.Command(ctx, bottest.Alice, discordtest.ChannelID, "start", opts); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, srv, "the thread", func() bool { return len(h.Threads(discordtest.ChannelID)) == 1 })
	thread := h.Threads(discordtest.ChannelID)[0]
	id, _, err := db.Lookup(ctx, "discord:"+thread)
	if err != nil {
		t.Fatal(err)
	}
	events := func() []roundtable.Event {
		evs, err := db.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return evs
	}
	for i := 0; events()[len(events())-1].Type() != "table_ended"; i++ {
		if i > 20 {
			t.Fatal("the table does not end")
		}
		clock.Advance(2 * time.Minute)
	}
	waitUntil(t, srv, "lost answers", func() bool { return srv.Failures() >= 3 })
	srv.SetOutage(false)

	var missing, repeated []string
	waitUntil(t, srv, "every implied post", func() bool {
		missing, repeated = bottest.CheckPosts(events(), "Lost", 2, h.Posts(thread))
		return len(missing) == 0
	})
	if len(repeated) > 0 {
		t.Errorf("posts shown more than once:\n%s", strings.Join(repeated, "\n"))
	}
}
