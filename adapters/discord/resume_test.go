package discord_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// TestGatewayResumeLosesAndRepeatsNothing has the fake ask the bot to
// reconnect (op 7) in the middle of a table's message phase. A message
// sent while the bot is away is replayed on RESUME; the table goes on and
// no event reaches the service twice.
func TestGatewayResumeLosesAndRepeatsNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	rec := &recorder{}
	startService(t, recording{Platform: discord.New(srv.Config(), testLogger(t)), rec: rec})
	waitUntil(t, srv, "the bot to connect", func() bool { return srv.Connected() && srv.Registered() })

	must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "start", map[string]string{"topic": "Resume", "rounds": "1", "agents": ""}))
	thread := srv.Threads(srv.Channel())[0]
	intro := waitPost(t, srv, thread, "**Resume")
	must(t, srv.Click(ctx, bottest.Bob, thread, intro.ID, intro.Controls[0].ID))
	must(t, srv.Command(ctx, bottest.Alice, thread, "begin", nil))
	must(t, srv.Say(ctx, bottest.Alice, thread, "before the reconnect"))

	must(t, srv.Reconnect())
	must(t, srv.Say(ctx, bottest.Bob, thread, "while the bot is away"))
	waitUntil(t, srv, "the resume", func() bool { return srv.Stats().Resumes == 1 })
	waitUntil(t, srv, "the proposal phase", func() bool {
		_, ok := postStarting(srv, thread, "**Round 1 of 1: proposal")
		return ok
	})
	must(t, srv.Command(ctx, bottest.Alice, thread, "propose", map[string]string{"text": "Carry on"}))
	if !privately(srv, bottest.Alice, "Your proposal is recorded") {
		t.Errorf("the command after the resume was not answered: %+v", srv.Private(bottest.Alice))
	}

	seen, said := map[string]bool{}, 0
	for _, ev := range rec.all() {
		if seen[ev.ID] {
			t.Errorf("event %s (%s) handled twice", ev.ID, ev.Kind)
		}
		seen[ev.ID] = true
		if ev.Kind == bot.KindMessage && !ev.User.Bot {
			said++
		}
	}
	if said != 2 {
		t.Errorf("%d people's messages handled, want 2", said)
	}
	if st := srv.Stats(); st.Identifies != 1 || st.Resumes != 1 || st.Replayed == 0 {
		t.Errorf("%d identifies, %d resumes, %d replayed: want 1, 1 and some", st.Identifies, st.Resumes, st.Replayed)
	}
}

// startService runs the suite's service over p until the test ends.
func startService(t *testing.T, p bot.Platform) {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := bottest.Service(p, db, bottest.NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)), nil)
	bottest.RunService(t, svc, db)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
