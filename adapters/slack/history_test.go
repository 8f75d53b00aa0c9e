package slack_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

const replies = "conversations.replies"

// outsideMarketplace is a fake Slack that holds the app to the limits of
// apps not approved for the Marketplace (one history read a minute, 15
// messages a page), and the adapter's config for it: both on one fake
// clock, which the adapter's waits move.
func outsideMarketplace(t *testing.T) (*slackfake.Server, slack.Config, *roundtabletest.Clock) {
	t.Helper()
	clock := roundtabletest.NewClock(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
	fake := slackfake.New(slackfake.Options{NotMarketplace: true, Clock: clock.Now})
	t.Cleanup(fake.Close)
	fake.AddUser(alice)
	cfg := config(fake)
	cfg.HistoryInterval, cfg.Now = 0, clock.Now // the default interval: a minute
	cfg.Wait = func(ctx context.Context, d time.Duration) error {
		clock.Advance(d)
		return ctx.Err()
	}
	return fake, cfg, clock
}

// busyThread starts a thread and fills it over 48 minutes: 45 messages
// of people's and 3 of the bot's keyed posts, the last "t1/r3/result".
func busyThread(t *testing.T, fake *slackfake.Server, p *slack.Platform, clock *roundtabletest.Clock) string {
	t.Helper()
	ctx := context.Background()
	thread, err := p.StartThread(ctx, slackfake.GeneralID, "roundtable: Parks")
	if err != nil {
		t.Fatal(err)
	}
	root := strings.TrimPrefix(thread, slackfake.GeneralID+"/")
	for r := 1; r <= 3; r++ {
		for i := range 15 {
			clock.Advance(time.Minute)
			if err := fake.Say(alice, slackfake.GeneralID, root, fmt.Sprintf("round %d, message %d", r, i)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := p.Post(ctx, thread, bot.Message{Text: fmt.Sprintf("Round %d result", r), Key: fmt.Sprintf("t1/r%d/result", r)}); err != nil {
			t.Fatal(err)
		}
	}
	return thread
}

// TestSearchesReadFromTheNewestAndMeetNo429: in a thread of 49 messages,
// on a Slack that gives an app outside the Marketplace one read a minute
// of 15 messages, a post that may have got through is looked for from the
// newest message backwards and no further than the bot's post before it:
// in this process (one read), after a restart (one window), and when it
// was not sent (one window, then posted once). No read meets a 429; the
// old search paged through the whole thread.
func TestSearchesReadFromTheNewestAndMeetNo429(t *testing.T) {
	fake, cfg, clock := outsideMarketplace(t)
	ctx := context.Background()
	first, _ := running(t, fake, cfg) // people speak through its Socket Mode connection
	thread := busyThread(t, fake, first, clock)
	end := bot.Message{Text: "The table has ended", Key: "t1/end"}
	id, err := first.Post(ctx, thread, end)
	if err != nil {
		t.Fatal(err)
	}

	reads := fake.Calls(replies)
	end.MaybeSent = true
	if again, err := first.Post(ctx, thread, end); err != nil || again != id {
		t.Fatalf("in process: %q, %v; want the first post %q", again, err, id)
	}
	if n := fake.Calls(replies) - reads; n != 1 {
		t.Errorf("in process: %d reads, want 1 (the messages after the bot's post before)", n)
	}

	clock.Advance(time.Minute) // a restart
	restarted := slack.New(cfg, newLogSink(t).logger())
	reads = fake.Calls(replies)
	if again, err := restarted.Post(ctx, thread, end); err != nil || again != id {
		t.Fatalf("after a restart: %q, %v; want the first post %q", again, err, id)
	}
	if n := fake.Calls(replies) - reads; n != 1 {
		t.Errorf("after a restart: %d reads, want 1 (the newest window)", n)
	}

	reads, before := fake.Calls(replies), len(fake.Messages(thread))
	clock.Advance(time.Minute) // another restart
	lost := bot.Message{Text: "Never sent", Key: "t1/extra", MaybeSent: true}
	if _, err := slack.New(cfg, newLogSink(t).logger()).Post(ctx, thread, lost); err != nil {
		t.Fatal(err)
	}
	if n := fake.Calls(replies) - reads; n != 1 {
		t.Errorf("a post not sent: %d reads, want 1 (stopped at the bot's post before it)", n)
	}
	if n := len(fake.Messages(thread)) - before; n != 1 {
		t.Errorf("a post not sent: %d messages added, want it once", n)
	}
	if n := fake.TooMany(replies) + fake.TooMany("conversations.history"); n != 0 {
		t.Errorf("%d reads met a 429, want none: the adapter paces them", n)
	}
}

// TestRefusedAttemptIsNotLookedFor: when Slack refused the last attempt
// (here the channel is archived), nothing was posted, and sending the
// post again reads no history.
func TestRefusedAttemptIsNotLookedFor(t *testing.T) {
	fake, cfg, _ := outsideMarketplace(t)
	p := slack.New(cfg, newLogSink(t).logger())
	fake.ArchiveChannel(slackfake.GeneralID)
	m := bot.Message{Text: "Round 1 result", Key: "t1/r1/result"}
	if _, err := p.Post(context.Background(), slackfake.GeneralID, m); err == nil {
		t.Fatal("a post in an archived channel went through")
	}
	m.MaybeSent = true
	_, _ = p.Post(context.Background(), slackfake.GeneralID, m)
	if n := fake.Calls("conversations.history") + fake.Calls(replies); n != 0 {
		t.Errorf("%d history reads for a post Slack refused, want none", n)
	}
}

// TestASearchHoldsNoOtherPost: while a search in one thread waits for
// the history reads' pace, posts in another thread of the same channel go
// out.
func TestASearchHoldsNoOtherPost(t *testing.T) {
	fake := newFake(t)
	cfg := config(fake)
	cfg.HistoryInterval = time.Hour // a read waits for a release, below
	release := make(chan struct{})
	var waiting sync.WaitGroup
	waiting.Add(1)
	cfg.Wait = func(ctx context.Context, d time.Duration) error {
		if d < time.Minute {
			return nil // post pacing
		}
		waiting.Done()
		select {
		case <-release:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	p := slack.New(cfg, newLogSink(t).logger())
	ctx := context.Background()
	threads := make([]string, 2)
	for i := range threads {
		var err error
		if threads[i], err = p.StartThread(ctx, slackfake.GeneralID, fmt.Sprintf("roundtable: %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := p.Post(ctx, threads[0], bot.Message{Text: "first read", Key: "t0/a", MaybeSent: true}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := p.Post(ctx, threads[0], bot.Message{Text: "second read", Key: "t0/b", MaybeSent: true})
		done <- err
	}()
	waiting.Wait() // the second search waits for the read limit
	for i := range 3 {
		if _, err := p.Post(ctx, threads[1], bot.Message{Text: fmt.Sprintf("other %d", i), Key: fmt.Sprintf("t1/%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Count(texts(fake.Messages(threads[1])), "other"); got != 3 {
		t.Errorf("%d posts of the other thread went out while the search waited, want 3", got)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func texts(msgs []slackfake.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Text + "\n")
	}
	return b.String()
}
