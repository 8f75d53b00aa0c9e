package slack_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
)

// recorder is a bot.Handler that hands events to the test.
type recorder chan *bot.Event

func (r recorder) handle(_ context.Context, ev *bot.Event) { r <- ev }

// next returns the next event that matches, skipping others.
func (r recorder) next(t *testing.T, what string, match func(*bot.Event) bool) *bot.Event {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for {
		select {
		case ev := <-r:
			if match(ev) {
				return ev
			}
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

var alice = slackfake.User{ID: "U1001", Name: "Alice", Admin: true}

// running starts a platform against fake and waits until it is connected.
func running(t *testing.T, fake *slackfake.Server, cfg slack.Config) (*slack.Platform, recorder) {
	t.Helper()
	p := slack.New(cfg, newLogSink(t).logger())
	rec := make(recorder, 100)
	run(t, p, rec.handle)
	waitUntil(t, fake, "the Socket Mode connection", func() bool { return fake.Connected() > 0 })
	return p, rec
}

func newFake(t *testing.T) *slackfake.Server {
	fake := slackfake.New(slackfake.Options{})
	t.Cleanup(fake.Close)
	return fake
}

func TestEventsAreNormalised(t *testing.T) {
	fake := newFake(t)
	p, rec := running(t, fake, config(fake))
	ctx := context.Background()
	thread, err := p.StartThread(ctx, slackfake.GeneralID, "roundtable: Lunch")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Post(ctx, thread, bot.Message{Text: "hello", As: &bot.Persona{Name: "Scribe"}}); err != nil {
		t.Fatal(err)
	}
	own := rec.next(t, "the echo of the bot's post", func(ev *bot.Event) bool { return ev.Kind == bot.KindMessage })
	if !own.User.Bot {
		t.Errorf("the bot's own post came as a person's message: %+v", own.User)
	}
	root := strings.TrimPrefix(thread, slackfake.GeneralID+"/")
	if err := fake.Say(alice, slackfake.GeneralID, root, "I'd say <pizza> & beer"); err != nil {
		t.Fatal(err)
	}
	ev := rec.next(t, "Alice's message", func(ev *bot.Event) bool { return ev.Kind == bot.KindMessage && !ev.User.Bot })
	want := bot.User{ID: alice.ID, Name: "Alice", Manager: true}
	if ev.Channel != thread || ev.Parent != slackfake.GeneralID || ev.Text != "I'd say <pizza> & beer" ||
		ev.User.ID != want.ID || ev.User.Name != want.Name || !ev.User.Manager || ev.Platform != "slack" {
		t.Errorf("event %+v", ev)
	}
}

func TestCommandsFindTheNewestThread(t *testing.T) {
	fake := newFake(t)
	first := slack.New(config(fake), nil)
	thread, err := first.StartThread(context.Background(), slackfake.GeneralID, "roundtable: One")
	if err != nil {
		t.Fatal(err)
	}
	_, rec := running(t, fake, config(fake)) // a restarted process: it learns the thread from history
	for _, c := range []struct{ text, channel, option string }{
		{"status", thread, ""},
		{`vote ballot:"A > B"`, thread, "A > B"},
		{"start Where now?", slackfake.GeneralID, "Where now?"},
		{"status table:t0000000001", slackfake.GeneralID, ""},
	} {
		if _, err := fake.Command(alice, slackfake.GeneralID, c.text); err != nil {
			t.Fatal(err)
		}
		ev := rec.next(t, c.text, func(ev *bot.Event) bool { return ev.Kind == bot.KindCommand })
		opt := ev.Options["ballot"] + ev.Options["topic"]
		if ev.Channel != c.channel || opt != c.option {
			t.Errorf("%q: channel %q option %q, want %q %q", c.text, ev.Channel, opt, c.channel, c.option)
		}
	}
}

func TestDisconnectReconnects(t *testing.T) {
	fake := newFake(t)
	_, rec := running(t, fake, config(fake))
	fake.Disconnect()
	waitUntil(t, fake, "a second connection", func() bool { return fake.Opens() == 2 && fake.Connected() == 1 })
	if _, err := fake.Command(alice, slackfake.GeneralID, "help"); err != nil {
		t.Fatal(err)
	}
	ev := rec.next(t, "the command after reconnecting", func(ev *bot.Event) bool { return ev.Kind == bot.KindCommand })
	if ev.Command != "help" {
		t.Errorf("command %q", ev.Command)
	}
	waitUntil(t, fake, "the ack", func() bool { return fake.Unacked() == 0 })
}

// waits records the adapter's waits and returns at once.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) wait(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	return ctx.Err()
}

func (w *waits) list() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

func TestPacingAndRateLimits(t *testing.T) {
	fake := newFake(t)
	var w waits
	cfg := config(fake)
	cfg.PostInterval, cfg.Wait = 0, w.wait // the default interval (1s), waited out by w
	p := slack.New(cfg, newLogSink(t).logger())
	ctx := context.Background()
	fake.RateLimit("chat.postMessage", 1, 1)
	for i := range 5 {
		if _, err := p.Post(ctx, slackfake.GeneralID, bot.Message{Text: fmt.Sprintf("agent %d", i), As: &bot.Persona{Name: "Scribe"}}); err != nil {
			t.Fatal(err)
		}
	}
	msgs := fake.Messages(slackfake.GeneralID)
	if len(msgs) != 5 || fake.Calls("chat.postMessage") != 6 {
		t.Fatalf("%d messages after %d calls, want 5 after 6 (one 429)", len(msgs), fake.Calls("chat.postMessage"))
	}
	for i, m := range msgs {
		if m.Text != fmt.Sprintf("agent %d", i) || m.Username != "Scribe" {
			t.Errorf("message %d: %q by %q", i, m.Text, m.Username)
		}
	}
	got := w.list()
	if len(got) != 5 || got[0] != time.Second {
		t.Fatalf("waits %v: want the 1s Retry-After, then 4 paced posts", got)
	}
	for _, d := range got[1:] {
		if d <= 0 || d > time.Second {
			t.Errorf("paced wait %v, want within (0, 1s]", d)
		}
	}
	fake.AddChannel("C0OTHER", "other")
	if _, err := p.Post(ctx, "C0OTHER", bot.Message{Text: "elsewhere"}); err != nil {
		t.Fatal(err)
	}
	if n := len(w.list()); n != 5 {
		t.Errorf("a post in another channel waited (%d waits)", n)
	}
}

func TestLongPostIsSplitAndEditedWhole(t *testing.T) {
	fake := newFake(t)
	p := newPlatform(fake, newLogSink(t).logger())
	ctx := context.Background()
	text := strings.Repeat("- **Candidate**: a long proposal text that goes on and on\n", 2000)
	id, err := p.Post(ctx, slackfake.GeneralID, bot.Message{Text: text,
		Controls: []bot.Control{{ID: "rt:t1:1:ballot", Kind: bot.Button, Label: "Fill in your ballot"}}})
	if err != nil {
		t.Fatal(err)
	}
	msgs := fake.Messages(slackfake.GeneralID)
	if len(msgs) < 3 || id != slackfake.GeneralID+"/"+msgs[0].TS {
		t.Fatalf("%d messages, ID %q", len(msgs), id)
	}
	last := msgs[len(msgs)-1].Blocks
	if last[len(last)-1].Type != "actions" {
		t.Errorf("the button is not on the last message")
	}
	if err := p.Edit(ctx, slackfake.GeneralID, id, bot.Message{Text: "**Round 1: vote phase** (closed)"}); err != nil {
		t.Fatal(err)
	}
	msgs = fake.Messages(slackfake.GeneralID)
	if len(msgs) != 1 || msgs[0].Blocks[0].Text.Text != "*Round 1: vote phase* (closed)" || len(msgs[0].Blocks) != 1 {
		t.Errorf("after the edit: %+v", msgs)
	}
}

func TestRepliesReachTheUser(t *testing.T) {
	fake := newFake(t)
	p, rec := running(t, fake, config(fake))
	ctx := context.Background()
	thread, _ := p.StartThread(ctx, slackfake.GeneralID, "roundtable: Forms")
	id, err := p.Post(ctx, thread, bot.Message{Text: "**Round 1 of 1: message phase**",
		Controls: []bot.Control{{ID: "rt:t1:1:write", Kind: bot.Button, Label: "Write message", Primary: true}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := strings.TrimPrefix(id, slackfake.GeneralID+"/")
	if err := fake.Click(alice, slackfake.GeneralID, ts, "rt:t1:1:write"); err != nil {
		t.Fatal(err)
	}
	click := rec.next(t, "the click", func(ev *bot.Event) bool { return ev.Kind == bot.KindAction })
	form := &bot.Form{ID: "rt:t1:1:msg", Title: "Round 1 message for the whole table",
		Fields: []bot.Field{{ID: "text", Label: "Your message to the table", Long: true, MaxLen: 4000}}}
	if err := p.Reply(ctx, click, bot.Reply{Form: form}); err != nil {
		t.Fatal(err)
	}
	if err := p.Reply(ctx, click, bot.Reply{Text: "Your **message** is recorded.", Ephemeral: true}); err != nil {
		t.Fatal(err)
	}
	views, eph := fake.Views(alice.ID), fake.Ephemerals(alice.ID)
	if len(views) != 1 || views[0].CallbackID != form.ID || len([]rune(views[0].Title)) > 24 {
		t.Fatalf("views %+v", views)
	}
	if len(eph) != 1 || eph[0].ThreadTS == "" || !strings.Contains(eph[0].Blocks[0].Text.Text, "*message*") {
		t.Fatalf("ephemerals %+v", eph)
	}
	if err := fake.Submit(alice, map[string]string{"text": "Pizza <3"}); err != nil {
		t.Fatal(err)
	}
	sub := rec.next(t, "the submission", func(ev *bot.Event) bool { return ev.Kind == bot.KindSubmit })
	if sub.Action != form.ID || sub.Fields["text"] != "Pizza <3" || sub.Channel != thread {
		t.Errorf("submission %+v", sub)
	}
	// A trigger opens one modal; Slack refuses a second one.
	if err := p.Reply(ctx, click, bot.Reply{Form: form}); err == nil {
		t.Errorf("a used trigger opened a second modal")
	}
}

func TestSecretsAreNotShown(t *testing.T) {
	fake := newFake(t)
	cfg := config(fake)
	for _, s := range []string{cfg.String(), fmt.Sprintf("%v %+v", cfg, cfg)} {
		if strings.Contains(s, slackfake.BotToken) || strings.Contains(s, slackfake.AppToken) || strings.Contains(s, signingSecret) {
			t.Errorf("config prints a secret: %s", s)
		}
	}
	logs := newLogSink(t)
	logs.logger().Info("config", "slack", cfg)
	cfg.BotToken = "xoxb-wrong-token-123"
	err := slack.New(cfg, logs.logger()).Run(context.Background(), func(context.Context, *bot.Event) {})
	if err == nil || strings.Contains(err.Error(), cfg.BotToken) || !strings.Contains(err.Error(), "invalid_auth") {
		t.Errorf("run with a wrong token: %v", err)
	}
	if strings.Contains(logs.String(), cfg.BotToken) || !strings.Contains(logs.String(), "redacted") {
		t.Errorf("logs: %s", logs.String())
	}
	var rl interface{ Retryable() bool }
	if errors.As(err, &rl) {
		t.Errorf("a refused token looks retryable")
	}
}
