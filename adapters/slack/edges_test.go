package slack_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	goslack "github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestStartWhereTheAppIsNotAnswersPrivately runs /roundtable start in a
// public channel the app has not joined and in a private one it is not
// in: Slack refuses the app there (not_in_channel, channel_not_found), so
// the person is answered through the command's response_url with what to
// do, and no table starts.
func TestStartWhereTheAppIsNotAnswersPrivately(t *testing.T) {
	tb := newTable(t)
	fake, ctx := tb.h.Fake, context.Background()
	alice := slackfake.SlackUser(bottest.Alice)
	fake.AddOutsideChannel("C0RANDOM", "random", false)
	fake.AddOutsideChannel("C0SECRET", "secret", true)
	cases := []struct{ channel, want string }{
		{"C0RANDOM", "I am not a member of #random. Invite me there with /invite @roundtable, then try again."},
		{"C0SECRET", "I cannot see #secret (a private channel I am not in?). Invite me there with /invite @roundtable"},
	}
	for _, c := range cases {
		tb.must("start", tb.h.Command(ctx, bottest.Alice, c.channel, "start", map[string]string{"topic": "Nobody hears"}))
		eph := fake.Ephemerals(alice.ID)
		if len(eph) == 0 || eph[len(eph)-1].Channel != c.channel || !strings.Contains(slackfake.BotMarkdown(eph[len(eph)-1].Text), c.want) {
			t.Errorf("start in %s: Alice was shown %+v, want %q", c.channel, eph, c.want)
		}
		if msgs := fake.Messages(c.channel); len(msgs) != 0 {
			t.Errorf("the app posted in %s: %+v", c.channel, msgs)
		}
	}
}

// TestPostsInArchivedChannelsAreRefusals checks that is_archived comes
// back as a bot.Refusal saying what to do, which nobody retries.
func TestPostsInArchivedChannelsAreRefusals(t *testing.T) {
	fake := newFake(t)
	p := newPlatform(fake, newLogSink(t).logger())
	fake.ArchiveChannel(slackfake.GeneralID)
	_, err := p.Post(context.Background(), slackfake.GeneralID, bot.Message{Text: "into the void"})
	if r, ok := bot.Refused(err); !ok || !strings.Contains(r.Reason, "is archived. Unarchive it") || !bot.Permanent(err) {
		t.Errorf("post in an archived channel: %v; want a permanent refusal", err)
	}
	fake.AddChannel("C0OTHER", "other")
	_, err = p.Post(context.Background(), "C0OTHER/1700000000.999999", bot.Message{Text: "nowhere"})
	if _, refused := bot.Refused(err); refused || !bot.Permanent(err) {
		t.Errorf("post in an unknown thread: %v; want a permanent error, not a refusal", err)
	}
}

// TestLongVotePostKeepsItsControls posts a vote phase whose text is far
// past Slack's 12,000 characters per message, with a select of 20
// candidates and a button: every part stays under the limit (the fake
// refuses more, as Slack does, with msg_blocks_too_long) and the controls
// are on the last part.
func TestLongVotePostKeepsItsControls(t *testing.T) {
	fake := newFake(t)
	p := newPlatform(fake, newLogSink(t).logger())
	ctx := context.Background()

	api := goslack.New(slackfake.BotToken, goslack.OptionAPIURL(fake.APIURL()))
	var big []goslack.Block
	for range 5 {
		big = append(big, goslack.NewSectionBlock(goslack.NewTextBlockObject(goslack.MarkdownType, strings.Repeat("x", 2600), false, false), nil, nil))
	}
	_, _, err := api.PostMessageContext(ctx, slackfake.GeneralID, goslack.MsgOptionText("fallback", false), goslack.MsgOptionBlocks(big...))
	var se goslack.SlackErrorResponse
	if !errors.As(err, &se) || se.Err != "msg_blocks_too_long" {
		t.Fatalf("13,000 characters of blocks: %v, want msg_blocks_too_long", err)
	}

	var text strings.Builder
	var opts []bot.Option
	for i := range 20 {
		label := fmt.Sprintf("Candidate %c", 'A'+i)
		opts = append(opts, bot.Option{Value: string(rune('A' + i)), Label: label + ": " + strings.Repeat("a long proposal ", 10)})
		fmt.Fprintf(&text, "- **%s**: %s\n", label, strings.Repeat("the whole reasoning of this proposal, at length. ", 30))
	}
	controls := []bot.Control{{ID: "rt:t1:1:choose", Kind: bot.Select, Label: "Your vote", Options: opts},
		{ID: "rt:t1:1:abstain", Kind: bot.Button, Label: "Abstain"}}
	if _, err := p.Post(ctx, slackfake.GeneralID, bot.Message{Text: "**Round 1: vote**\n" + text.String(), Controls: controls}); err != nil {
		t.Fatal(err)
	}
	msgs := fake.Messages(slackfake.GeneralID)
	if len(msgs) < 3 {
		t.Fatalf("%d messages for %d characters", len(msgs), text.Len())
	}
	for i, m := range msgs {
		if n := m.BlocksText(); n > 12000 {
			t.Errorf("message %d holds %d characters", i, n)
		}
	}
	var ids []string
	for _, b := range msgs[len(msgs)-1].Blocks {
		for _, e := range b.Elements {
			ids = append(ids, e.ActionID)
		}
	}
	if strings.Join(ids, " ") != "rt:t1:1:choose rt:t1:1:abstain" {
		t.Errorf("the last message has controls %v", ids)
	}
}

// TestFormsAreNotRetriedPastTheirTrigger meets a 429 on views.open: a
// Retry-After that ends within the trigger's 3 s is waited out; a longer
// one is not (the trigger would have expired), and the user is told to
// press the button again.
func TestFormsAreNotRetriedPastTheirTrigger(t *testing.T) {
	fake := newFake(t)
	var w waits
	cfg := config(fake)
	cfg.Wait = w.wait
	p, rec := running(t, fake, cfg)
	ctx := context.Background()
	id, err := p.Post(ctx, slackfake.GeneralID, bot.Message{Text: "vote",
		Controls: []bot.Control{{ID: "rt:t1:1:ballot", Kind: bot.Button, Label: "Fill in your ballot"}}})
	if err != nil {
		t.Fatal(err)
	}
	ts := strings.TrimPrefix(id, slackfake.GeneralID+"/")
	form := &bot.Form{ID: "rt:t1:1:ballot", Title: "Ballot", Fields: []bot.Field{{ID: "ballot", Label: "Your ballot"}}}
	click := func() *bot.Event {
		if err := fake.Click(alice, slackfake.GeneralID, ts, "rt:t1:1:ballot"); err != nil {
			t.Fatal(err)
		}
		return rec.next(t, "the click", func(ev *bot.Event) bool { return ev.Kind == bot.KindAction })
	}

	fake.RateLimit("views.open", 1, 5)
	if err := p.Reply(ctx, click(), bot.Reply{Form: form}); err == nil {
		t.Error("a form opened after a 5 s Retry-After")
	}
	if n, waited := fake.Calls("views.open"), w.list(); n != 1 || len(waited) != 0 {
		t.Errorf("after a 5 s Retry-After: %d calls, waits %v; want 1 call, no wait", n, waited)
	}
	eph := fake.Ephemerals(alice.ID)
	if len(eph) != 1 || !strings.Contains(eph[0].Text, "please press the button again") {
		t.Errorf("Alice was shown %+v", eph)
	}

	fake.RateLimit("views.open", 1, 1)
	if err := p.Reply(ctx, click(), bot.Reply{Form: form}); err != nil {
		t.Fatal(err)
	}
	if n, views := fake.Calls("views.open"), fake.Views(alice.ID); n != 3 || len(views) != 1 {
		t.Errorf("after a 1 s Retry-After: %d calls and %d views, want 3 and 1", n, len(views))
	}
}

// TestCommandsNamingATableElsewhereAreRefused names, in another channel,
// a table started in #general: Slack runs commands in channels only, so
// a table is reachable from its own channel, and refused from any other.
func TestCommandsNamingATableElsewhereAreRefused(t *testing.T) {
	tb := newTable(t)
	fake, ctx := tb.h.Fake, context.Background()
	fake.AddChannel("C0OTHER", "other")
	tb.must("start", tb.h.Command(ctx, bottest.Alice, slackfake.GeneralID, "start", map[string]string{"topic": "Here", "agents": "none"}))
	eph := fake.Ephemerals(slackfake.SlackUser(bottest.Alice).ID)
	m := regexp.MustCompile(`Table (t[0-9a-f]+) (?:is set up|started)`).FindStringSubmatch(eph[len(eph)-1].Text)
	if m == nil {
		t.Fatalf("no table started: %+v", eph)
	}
	tb.must("join elsewhere", tb.h.Command(ctx, bottest.Bob, "C0OTHER", "join", map[string]string{"table": m[1]}))
	tb.must("join here", tb.h.Command(ctx, bottest.Carol, slackfake.GeneralID, "join", map[string]string{"table": m[1]}))
	bob, carol := fake.Ephemerals(slackfake.SlackUser(bottest.Bob).ID), fake.Ephemerals(slackfake.SlackUser(bottest.Carol).ID)
	if len(bob) != 1 || !strings.Contains(bob[0].Text, "is not in this channel") {
		t.Errorf("Bob, in #other, was shown %+v", bob)
	}
	if len(carol) != 1 || !strings.Contains(carol[0].Text, "You joined") {
		t.Errorf("Carol, in #general, was shown %+v", carol)
	}
}
