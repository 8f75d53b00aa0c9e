package discord_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
)

// These tests use the REST API only: Post, Edit and StartThread need no
// gateway connection (the service posts while it resumes tables, before
// Run connects).

func TestBurstOfPostsWaitsOutRateLimitsInOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	threads := startThreads(t, srv, p, "burst", 3)
	srv.SetLimit(3, 60*time.Millisecond)
	srv.Force429(4)
	const n = 12
	var wg sync.WaitGroup
	for ti, th := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				m := bot.Message{Text: fmt.Sprintf("%d:%d", ti, i)}
				if ti > 0 { // agents speak through the webhook
					m.As = &bot.Persona{Name: fmt.Sprintf("Agent %d", ti)}
				}
				if _, err := p.Post(ctx, th, m); err != nil {
					t.Errorf("post %s: %v", m.Text, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for ti, th := range threads {
		var got []string
		for _, m := range srv.Posts(th) {
			got = append(got, m.Text)
		}
		var want []string
		for i := range n {
			want = append(want, fmt.Sprintf("%d:%d", ti, i))
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("thread %d shows %v, want %v", ti, got, want)
		}
	}
	if st := srv.Stats(); st.TooMany < 4 || st.Exhausted == 0 {
		t.Errorf("stats %+v: want the forced 429s and exhausted buckets", st)
	}
}

func TestLongTextIsSplitWithControlsOnTheLastPart(t *testing.T) {
	t.Parallel()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	var b strings.Builder
	for i := 0; b.Len() < 4500; i++ {
		fmt.Fprintf(&b, "- line %d: the table weighs its options\n", i)
	}
	b.WriteString(strings.Repeat("x", 2100)) // no break to cut at
	text := b.String()
	id, err := p.Post(context.Background(), srv.Channel(), bot.Message{Text: text,
		Controls: []bot.Control{{ID: "rt:t1:1:join", Kind: bot.Button, Label: "Join"}}})
	must(t, err)
	msgs := srv.Messages(srv.Channel())
	if len(msgs) < 3 || msgs[0].ID != id {
		t.Fatalf("%d parts, first %v; want at least 3, the first's ID returned (%s)", len(msgs), msgs[0].ID, id)
	}
	var joined strings.Builder
	for i, m := range msgs {
		if n := utf8.RuneCountInString(m.Text); n > 2000 {
			t.Errorf("part %d has %d characters", i, n)
		}
		if hasRows := len(m.Rows) > 0; hasRows != (i == len(msgs)-1) {
			t.Errorf("part %d of %d has controls: %v", i+1, len(msgs), hasRows)
		}
		joined.WriteString(m.Text)
	}
	if strip(joined.String()) != strip(text) {
		t.Errorf("the parts do not add up to the text")
	}
	for _, m := range msgs[:2] {
		if !strings.HasSuffix(m.Text, "options") {
			t.Errorf("a part ends mid-line: %q", m.Text[len(m.Text)-20:])
		}
	}
}

func strip(s string) string { return strings.NewReplacer("\n", "", " ", "").Replace(s) }

func TestControlsFitDiscordLimits(t *testing.T) {
	t.Parallel()
	srv := discordtest.New(t, discordtest.Options{})
	p := discord.New(srv.Config(), testLogger(t))
	var controls []bot.Control
	for i := range 12 {
		controls = append(controls, bot.Control{ID: fmt.Sprintf("b%d", i), Kind: bot.Button, Label: fmt.Sprintf("Button %d", i)})
	}
	var opts []bot.Option
	for i := range 30 {
		opts = append(opts, bot.Option{Value: fmt.Sprintf("v%d", i), Label: strings.Repeat("long label ", 20)})
	}
	controls = append(controls, bot.Control{ID: "s1", Kind: bot.Select, Label: "Pick", Options: opts, Min: 0, Max: 30},
		bot.Control{ID: "s2", Kind: bot.Select, Label: "Pick one", Options: opts[:3], Min: 1, Max: 1},
		bot.Control{ID: "b-late", Kind: bot.Button, Label: "Dropped"})
	ctx := context.Background()
	id, err := p.Post(ctx, srv.Channel(), bot.Message{Text: "many controls", Controls: controls})
	must(t, err) // the fake refuses what Discord refuses
	rows := srv.Messages(srv.Channel())[0].Rows
	var shape []int
	for _, r := range rows {
		shape = append(shape, len(r))
	}
	if fmt.Sprint(shape) != "[5 5 2 1 1]" {
		t.Errorf("rows %v, want [5 5 2 1 1] (buttons by five, a select per row, five rows)", shape)
	}
	if got := len(rows[3][0].Options); got != 25 {
		t.Errorf("select with %d options, want 25", got)
	}
	must(t, p.Edit(ctx, srv.Channel(), id, bot.Message{Text: "closed"}))
	if m := srv.Messages(srv.Channel())[0]; m.Text != "closed" || len(m.Rows) != 0 {
		t.Errorf("after the edit: %q with %d rows, want the controls removed", m.Text, len(m.Rows))
	}
}

func TestAgentsSpeakThroughOneWebhookAcrossRestarts(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := discordtest.New(t, discordtest.Options{})
	log := testLogger(t)
	first := discord.New(srv.Config(), log)
	thread, err := first.StartThread(ctx, srv.Channel(), "webhooks")
	must(t, err)
	_, err = first.Post(ctx, thread, bot.Message{Text: "hello from a thread", As: &bot.Persona{Name: "Scribe", Avatar: "https://example.com/a.png"}})
	must(t, err)
	_, err = first.Post(ctx, srv.Channel(), bot.Message{Text: "hello from the channel", As: &bot.Persona{Name: "Discord Bot"}})
	must(t, err)

	restarted := discord.New(srv.Config(), log) // knows neither the thread nor the webhook
	_, err = restarted.Post(ctx, thread, bot.Message{Text: "back again", As: &bot.Persona{Name: "Critic"}})
	must(t, err)

	if hooks := srv.Webhooks(srv.Channel()); len(hooks) != 1 || hooks[0] != "roundtable" || srv.Stats().WebhooksNew != 1 {
		t.Errorf("webhooks %v (%d made), want the one named roundtable", hooks, srv.Stats().WebhooksNew)
	}
	var authors []string
	for _, m := range srv.Messages(thread) {
		if m.Webhook == "" {
			t.Errorf("%q was not posted by the webhook", m.Text)
		}
		authors = append(authors, m.Author)
	}
	if fmt.Sprint(authors) != "[Scribe Critic]" {
		t.Errorf("thread authors %v, want [Scribe Critic]", authors)
	}
	if m := srv.Messages(srv.Channel()); len(m) != 1 || strings.Contains(strings.ToLower(m[0].Author), "discord") {
		t.Errorf("channel messages %+v: want one, its author without the reserved word", m)
	}
}
