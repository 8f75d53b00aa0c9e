package slack_test

import (
	"context"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
)

// TestMaybeSentPostIsFoundNotRepeated: a keyed post sent again with
// MaybeSent, in a channel (conversations.history) and in a thread
// (conversations.replies), returns the first post's ID and posts nothing.
func TestMaybeSentPostIsFoundNotRepeated(t *testing.T) {
	fake, p, thread := tableThread(t)
	ctx := context.Background()
	for _, where := range []string{slackfake.GeneralID, thread} {
		m := bot.Message{Text: "Round 1 of 1", Key: "t1/r1/message/open/" + where}
		first, err := p.Post(ctx, where, m)
		if err != nil {
			t.Fatal(err)
		}
		before := len(fake.Messages(where))
		m.MaybeSent = true
		again, err := p.Post(ctx, where, m)
		if err != nil {
			t.Fatal(err)
		}
		if again != first || len(fake.Messages(where)) != before {
			t.Errorf("in %s: sent again as %s (first %s), %d messages (before %d)", where, again, first, len(fake.Messages(where)), before)
		}
	}
}

// TestLongPostSentAgainPostsOnlyMissingParts: a post split in parts, of
// which only the first got through, is completed, not repeated.
func TestLongPostSentAgainPostsOnlyMissingParts(t *testing.T) {
	fake, p, thread := tableThread(t)
	ctx := context.Background()
	long := strings.Repeat("A long line of the round's result.\n", 700) // about 24,500 characters: 3 parts
	m := bot.Message{Text: long, Key: "t1/r1/result"}
	if _, err := p.Post(ctx, thread, m); err != nil {
		t.Fatal(err)
	}
	parts := fake.Messages(thread)
	if len(parts) < 2 {
		t.Fatalf("%d parts, want a split post", len(parts))
	}
	for _, pt := range parts[1:] {
		fake.Remove(pt.Channel, pt.TS) // as if only the first part had got through
	}
	m.MaybeSent = true
	if _, err := p.Post(ctx, thread, m); err != nil {
		t.Fatal(err)
	}
	after := fake.Messages(thread)
	if len(after) != len(parts) || after[0].TS != parts[0].TS {
		t.Errorf("after sending again: %d parts starting %s, want the %d parts starting with the first one, %s",
			len(after), after[0].TS, len(parts), parts[0].TS)
	}
}

// TestWithoutHistoryScopeAPostIsRepeatedNotLost: an app installed without
// channels:history cannot look for an earlier attempt: the post is sent
// again (a repeat is better than a loss), and a warning is logged.
func TestWithoutHistoryScopeAPostIsRepeatedNotLost(t *testing.T) {
	fake := slackfake.New(slackfake.Options{NoHistory: true})
	t.Cleanup(fake.Close)
	logs := newLogSink(t)
	p := slack.New(config(fake), logs.logger())
	run(t, p, func(context.Context, *bot.Event) {})
	waitUntil(t, fake, "the Socket Mode connection", func() bool { return fake.Connected() > 0 })
	ctx := context.Background()
	m := bot.Message{Text: "The table has ended", Key: "t1/end", MaybeSent: true}
	if _, err := p.Post(ctx, slackfake.GeneralID, m); err != nil {
		t.Fatalf("post without the history scope: %v", err)
	}
	if n := len(fake.Messages(slackfake.GeneralID)); n != 1 {
		t.Errorf("%d messages, want the post", n)
	}
	if !strings.Contains(logs.String(), "missing_scope") {
		t.Errorf("the missing scope was not logged:\n%s", logs.String())
	}
}

// tableThread starts a platform against a new fake and a table's thread
// in its general channel.
func tableThread(t *testing.T) (*slackfake.Server, *slack.Platform, string) {
	t.Helper()
	fake := newFake(t)
	p, _ := running(t, fake, config(fake))
	thread, err := p.StartThread(context.Background(), slackfake.GeneralID, "A table")
	if err != nil {
		t.Fatal(err)
	}
	return fake, p, thread
}
