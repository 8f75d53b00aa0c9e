package slack_test

import (
	"context"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
)

// TestFullUserQueueTellsUserToTryAgain holds Alice's first command in the
// service while two more of hers arrive with a queue of one: the second
// waits its turn, the third is refused at once with an ephemeral "try
// again" and never reaches the service.
func TestFullUserQueueTellsUserToTryAgain(t *testing.T) {
	fake := newFake(t)
	p := slack.New(config(fake), newLogSink(t).logger())
	slack.SetQueueDepth(p, 1)
	release, started, rec := make(chan struct{}), make(chan struct{}), make(recorder, 10)
	run(t, p, func(ctx context.Context, ev *bot.Event) {
		rec.handle(ctx, ev)
		if ev.Options["text"] == "first" {
			close(started)
			<-release
		}
	})
	waitUntil(t, fake, "the Socket Mode connection", func() bool { return fake.Connected() > 0 })
	for i, text := range []string{"propose text:first", "propose text:second", "propose text:third"} {
		if _, err := fake.Command(alice, slackfake.GeneralID, text); err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			<-started
		}
	}
	waitUntil(t, fake, "Alice's try-again", func() bool {
		for _, e := range fake.Ephemerals(alice.ID) {
			if e.Text == bot.TryAgainText || len(e.Blocks) > 0 && e.Blocks[0].Text != nil && e.Blocks[0].Text.Text == bot.TryAgainText {
				return true
			}
		}
		return false
	})
	close(release)
	<-slack.Idle(p)
	close(rec)
	var got []string
	for ev := range rec {
		got = append(got, ev.Options["text"])
	}
	if len(got) != 2 || got[0] != "first" || got[1] != "second" {
		t.Errorf("the service got %q, want first and second", got)
	}
}
