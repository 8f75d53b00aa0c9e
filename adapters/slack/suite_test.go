package slack_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
)

// TestConformance runs the bot's conformance suite over Socket Mode
// against the fake Slack, with the real slack-go client.
func TestConformance(t *testing.T) {
	bottest.Run(t, func(t *testing.T) bottest.Harness {
		fake := slackfake.New(slackfake.Options{})
		t.Cleanup(fake.Close)
		logs := newLogSink(t)
		return slackfake.NewHarness(fake, func() bot.Platform { return newPlatform(fake, logs.logger()) })
	}, bottest.Options{})
}
