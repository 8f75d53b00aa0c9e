package discord_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestMessagesOfBotsAndAgentsAreMarked checks that the bot's own
// messages, its agents' webhook messages and other bots' messages reach
// the service marked User.Bot (which it ignores), people's are not, and
// system messages (the thread-created notice) do not reach it at all.
func TestMessagesOfBotsAndAgentsAreMarked(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	rec := &recorder{}
	run(t, srv, p, rec.handle)
	thread, err := p.StartThread(ctx, srv.Channel(), "authors")
	must(t, err)
	_, err = p.Post(ctx, thread, bot.Message{Text: "from the bot"})
	must(t, err)
	_, err = p.Post(ctx, thread, bot.Message{Text: "from an agent", As: &bot.Persona{Name: "Scribe"}})
	must(t, err)
	must(t, srv.SayBot(ctx, thread, "OtherBot", "from another bot"))
	must(t, srv.Say(ctx, bottest.Carol, thread, "from a person"))
	waitUntil(t, srv, "the person's message", func() bool { return len(rec.all()) == 4 })

	want := []struct {
		text string
		bot  bool
	}{{"from the bot", true}, {"from an agent", true}, {"from another bot", true}, {"from a person", false}}
	for i, ev := range rec.all() { // one channel: in order
		w := want[i]
		if ev.Kind != bot.KindMessage || ev.Text != w.text || ev.User.Bot != w.bot || ev.Channel != thread || ev.Parent != srv.Channel() {
			t.Errorf("event %d: %+v; want %q from a bot: %v, in %s under %s", i, ev, w.text, w.bot, thread, srv.Channel())
		}
	}
	if ev := rec.all()[3]; ev.User.ID != bottest.Carol.ID || ev.User.Name != bottest.Carol.Name {
		t.Errorf("the person is %+v, want Carol", ev.User)
	}
}

// TestSlowAnswersAreDeferred has the service take longer than the
// deferral delay: the interaction is deferred, the answer comes as an
// ephemeral follow-up, a form that can no longer open says so, and an
// export arrives as a file.
func TestSlowAnswersAreDeferred(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	discord.SetAckAfter(p, 20*time.Millisecond)
	deferred, handled := 0, make(chan struct{}, 3)
	slow := func(ctx context.Context, ev *bot.Event) {
		defer func() { handled <- struct{}{} }()
		deferred++
		waitUntil(t, srv, "the deferral", func() bool { return srv.Stats().Deferred == deferred })
		var err error
		switch ev.Command {
		case "status":
			err = p.Reply(ctx, ev, bot.Reply{Text: "late answer", Ephemeral: true})
		case "propose":
			err = p.Reply(ctx, ev, bot.Reply{Form: &bot.Form{ID: "f", Title: "Too late", Fields: []bot.Field{{ID: "text", Label: "Text"}}}})
		case "export":
			err = bot.Uploader(p).Upload(ctx, ev, "t1.jsonl", []byte(`{"type":"table_created"}`), "Event log of table t1")
		}
		if err != nil {
			t.Errorf("%s: %v", ev.Command, err)
		}
	}
	run(t, srv, p, slow)
	must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "status", nil))
	must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "propose", map[string]string{"text": "x"}))
	must(t, srv.Command(ctx, bottest.Alice, srv.Channel(), "export", map[string]string{"format": "jsonl"}))
	for range 3 {
		<-handled // the fake has the answer before the client has read the response
	}

	var texts []string
	for _, pv := range srv.Private(bottest.Alice) {
		texts = append(texts, pv.Text)
		if pv.Form != nil {
			t.Errorf("a form opened after the deferral: %+v", pv.Form)
		}
	}
	got := strings.Join(texts, " | ")
	for _, want := range []string{"late answer", "try again", "file t1.jsonl"} {
		if !strings.Contains(got, want) {
			t.Errorf("Alice saw %q, missing %q", got, want)
		}
	}
	if files := srv.Files(bottest.Alice); len(files) != 1 || !strings.Contains(string(files[0].Data), "table_created") {
		t.Errorf("files %+v, want the export", files)
	}
	if len(srv.Posts(srv.Channel())) != 0 {
		t.Errorf("ephemeral answers were posted in the channel: %+v", srv.Posts(srv.Channel()))
	}
}

// TestRefusedTokenStopsRunWithoutLoggingIt checks that a token Discord
// refuses ends Run with an error (no retrying forever) and that the token
// shows neither in the error nor in the logs (testLogger checks those).
func TestRefusedTokenStopsRunWithoutLoggingIt(t *testing.T) {
	t.Parallel()
	srv := discordtest.New(t, discordtest.Options{})
	cfg := srv.Config()
	cfg.Token = "not-" + strings.TrimPrefix(discordtest.DefaultToken, "Bot ") // the secret stays in the logs' blacklist
	p := discord.New(cfg, testLogger(t))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := p.Run(ctx, func(context.Context, *bot.Event) {})
	if err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("run: %v, want a refusal", err)
	}
	if strings.Contains(err.Error(), cfg.Token) {
		t.Errorf("the error shows the token: %v", err)
	}
	_, err = p.Post(ctx, srv.Channel(), bot.Message{Text: "x"})
	if err == nil || strings.Contains(err.Error(), cfg.Token) {
		t.Errorf("post with a refused token: %v", err)
	}
}
