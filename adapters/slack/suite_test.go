package slack_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestConformance runs the bot's conformance suite over Socket Mode
// against the fake Slack, with the real slack-go client.
func TestConformance(t *testing.T) {
	bottest.Run(t, func(t *testing.T) bottest.Harness {
		fake := slackfake.New(slackfake.Options{})
		t.Cleanup(fake.Close)
		logs := newLogSink(t)
		h := slackfake.NewHarness(fake, func() bot.Platform { return newPlatform(fake, logs.logger()) })
		h.Settle = func(ctx context.Context) error { return settle(ctx, fake, h.Platform().(*slack.Platform)) }
		return h
	}, bottest.Options{})
}

// settle waits until p has acknowledged everything fake sent and handled
// it: the Harness contract has Command, Click and Submit return once the
// bot has answered, and the suite moves its fake clock right after acts.
// Slack itself gives no such signal, so the test asks the adapter.
func settle(ctx context.Context, fake *slackfake.Server, p *slack.Platform) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for fake.Unacked() > 0 {
		select {
		case <-fake.Updates():
		case <-ctx.Done():
			return fmt.Errorf("settle: %d envelopes not acknowledged", fake.Unacked())
		}
	}
	select {
	case <-slack.Idle(p):
		return nil
	case <-ctx.Done():
		return fmt.Errorf("settle: events still being handled")
	}
}

// TestLostAnswersDoNotDuplicatePosts: the fake Slack takes every other
// post and edit and loses its answer; the adapter finds the post by the
// key in its metadata before sending it again, and each shows once, the
// agent's included.
func TestLostAnswersDoNotDuplicatePosts(t *testing.T) {
	bottest.RunLostAnswers(t, newSuiteHarness(t), "")
}

// TestAnswerLostBeforeRestartShowsOnce: the agent's post is taken but its
// answer lost, the history cannot be read, and the bot restarts; the new
// process finds the post by its metadata and does not repeat it.
func TestAnswerLostBeforeRestartShowsOnce(t *testing.T) {
	bottest.RunLostBeforeRestart(t, newSuiteHarness(t))
}

// TestPromptLostBeforeRestartShowsOnceClosed: the bot's own phase prompt
// is taken but its answer lost, its phase closes, and the bot restarts;
// the new process finds the prompt by its metadata and closes it.
func TestPromptLostBeforeRestartShowsOnceClosed(t *testing.T) {
	bottest.RunLostPromptBeforeRestart(t, newSuiteHarness(t))
}

// TestFlakyPlatformMidTable: the fake Slack fails for a while in the
// middle of a table (503s, dropped connections, lost answers, Socket Mode
// dropped) while people act; every implied post shows once, closed where
// it is a phase prompt, and every action is in the log once.
func TestFlakyPlatformMidTable(t *testing.T) {
	h := newSuiteHarness(t)
	bottest.RunFlakyTable(t, h)
	if n := h.Fake.Opens(); n < 2 {
		t.Errorf("the app opened Socket Mode %d times, want a new connection after the drop", n)
	}
}

// newSuiteHarness is a harness over a new fake Slack.
func newSuiteHarness(t *testing.T) *slackfake.Harness {
	fake := slackfake.New(slackfake.Options{})
	t.Cleanup(fake.Close)
	logs := newLogSink(t)
	h := slackfake.NewHarness(fake, func() bot.Platform { return newPlatform(fake, logs.logger()) })
	h.Settle = func(ctx context.Context) error { return settle(ctx, fake, h.Platform().(*slack.Platform)) }
	return h
}
