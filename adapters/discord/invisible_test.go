package discord_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestPostsAddNothingPeopleDoNotSee: keyed posts, the bot's with controls
// and an agent's, a long one in parts, and an edit, reach Discord with
// exactly their text: nothing invisible glued to the last word for a
// reader to copy. (The posts are still found when their answer is lost:
// marker.go, TestMaybeSentPostsAreFoundNotRepeated.)
func TestPostsAddNothingPeopleDoNotSee(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	run(t, srv, p, func(context.Context, *bot.Event) {})
	thread, err := p.StartThread(ctx, srv.Channel(), "a table")
	must(t, err)
	long := strings.Repeat("word ", 700) + "https://example.org/path"
	prompt, err := p.Post(ctx, thread, bot.Message{Text: "**Round 1: proposal phase**", Key: "t1/r1/proposal/open",
		Controls: []bot.Control{{ID: "rt:t1:1:prop", Kind: bot.Button, Label: "Propose"}}})
	must(t, err)
	for _, m := range []bot.Message{
		{Text: "Scribe here: see https://example.org/path", Key: "t1/r1/msg/7", As: &bot.Persona{Name: "Scribe"}},
		{Text: long, Key: "t1/r1/msg/8", As: &bot.Persona{Name: "Scribe"}},
		{Text: long, Key: "t1/r1/result"},
	} {
		_, err := p.Post(ctx, thread, m)
		must(t, err)
	}
	must(t, p.Edit(ctx, thread, prompt, bot.Message{Text: "**Round 1: proposal phase** (closed)", Key: "t1/r1/proposal/open"}))
	var all strings.Builder
	for _, m := range srv.Messages(thread) {
		if v := bot.Visible(m.Text); v != m.Text {
			t.Errorf("message %s carries characters people do not see: %+q", m.ID, strings.TrimPrefix(m.Text, v))
		}
		all.WriteString(m.Text)
	}
	if !strings.Contains(all.String(), "Scribe here: see https://example.org/path") || !strings.Contains(all.String(), "(closed)") {
		t.Errorf("posts: %s", all.String())
	}
}

// TestInvisibleCharactersGoAtTheEdge: what a person sends, typed in the
// channel, as a command's option or in a form, reaches the service
// without the characters clients do not show, however they were pasted.
func TestInvisibleCharactersGoAtTheEdge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	rec := &recorder{next: func(ctx context.Context, ev *bot.Event) {
		if ev.Kind == bot.KindCommand {
			_ = p.Reply(ctx, ev, bot.Reply{Text: "noted", Ephemeral: true}) // lets the command return
		}
	}}
	run(t, srv, p, rec.handle)
	pasted := "Build the park\u2060\u200d\u200b\u200c\u2060\u200d\u200b\u200c\ufeff"
	must(t, srv.Say(ctx, bottest.Alice, srv.Channel(), pasted))
	must(t, srv.Command(ctx, bottest.Bob, srv.Channel(), "propose", map[string]string{"text": pasted}))
	waitUntil(t, srv, "both events", func() bool { return len(rec.all()) == 2 })
	for _, ev := range rec.all() {
		got := ev.Text + ev.Options["text"]
		if got != "Build the park" {
			t.Errorf("%s event carries %+q, want %q", ev.Kind, got, "Build the park")
		}
	}
}

// TestLoneSurrogatesAreRefusedNotReplaced: a message whose JSON holds
// \ud800 (half a surrogate pair, which decoding turns into U+FFFD) does
// not reach the service; the channel is told why. The next message,
// readable, does.
func TestLoneSurrogatesAreRefusedNotReplaced(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	rec := &recorder{}
	p := discord.New(srv.Config(), testLogger(t))
	run(t, srv, p, rec.handle)
	must(t, srv.SayEscaped(bottest.Alice, srv.Channel(), `caf\ud800`))
	must(t, srv.Say(ctx, bottest.Alice, srv.Channel(), "café"))
	waitPost(t, srv, srv.Channel(), "What you sent cannot be taken as you wrote it")
	people := func() []string {
		var out []string
		for _, ev := range rec.all() {
			if !ev.User.Bot {
				out = append(out, ev.Text)
			}
		}
		return out
	}
	waitUntil(t, srv, "the readable message", func() bool { return len(people()) > 0 })
	if got := people(); len(got) != 1 || got[0] != "café" {
		t.Errorf("the service got %+q, want only the readable message", got)
	}
	if post, _ := postStarting(srv, srv.Channel(), "What you sent"); !strings.Contains(post.Text, `\ud800`) {
		t.Errorf("the refusal %q does not name the escape", post.Text)
	}
}
