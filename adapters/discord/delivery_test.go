package discord_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestLostAnswersDoNotDuplicatePosts: the fake Discord takes every other
// post and edit and loses its answer; the bot sends them again, its own
// posts with the same enforced nonce, the agent's webhook posts after
// looking for them in the channel, and each shows once.
func TestLostAnswersDoNotDuplicatePosts(t *testing.T) {
	h := discordtest.NewHarness(discordtest.New(t, discordtest.Options{}), testLogger(t))
	bottest.RunLostAnswers(t, h, "")
}

// TestAnswerLostBeforeRestartShowsOnce: the agent's webhook post is taken
// but its answer lost, the history cannot be read, and the bot restarts;
// the new process finds the post in the channel and does not repeat it.
func TestAnswerLostBeforeRestartShowsOnce(t *testing.T) {
	h := discordtest.NewHarness(discordtest.New(t, discordtest.Options{}), testLogger(t))
	bottest.RunLostBeforeRestart(t, h)
}

// TestPromptLostBeforeRestartShowsOnceClosed: the bot's own phase prompt
// is taken but its answer lost, its phase closes, and the bot restarts;
// the new process gets the prompt back by its nonce and closes it.
func TestPromptLostBeforeRestartShowsOnceClosed(t *testing.T) {
	h := discordtest.NewHarness(discordtest.New(t, discordtest.Options{}), testLogger(t))
	bottest.RunLostPromptBeforeRestart(t, h)
}

// TestFlakyPlatformMidTable: the fake Discord fails for a while in the
// middle of a table (503s, dropped connections, lost answers, the gateway
// dropped) while people act; every implied post shows once, closed where
// it is a phase prompt, and every action is in the log once.
func TestFlakyPlatformMidTable(t *testing.T) {
	h := discordtest.NewHarness(discordtest.New(t, discordtest.Options{}), testLogger(t))
	bottest.RunFlakyTable(t, h)
	if st := h.Stats(); st.Resumes == 0 {
		t.Errorf("the bot never resumed its gateway session after the drop: %+v", st)
	}
}

// TestLostAnswersPastTheNonceWindowShowOnce: as
// TestLostAnswersDoNotDuplicatePosts and
// TestPromptLostBeforeRestartShowsOnceClosed, with a fake Discord that has
// forgotten every nonce (as it does after a few minutes): the bot's own
// posts are found in the channel, the prompt by the mark its controls
// carry although its text changed.
func TestLostAnswersPastTheNonceWindowShowOnce(t *testing.T) {
	t.Run("retried", func(t *testing.T) {
		h := discordtest.NewHarness(discordtest.New(t, discordtest.Options{ForgetNonces: true}), testLogger(t))
		bottest.RunLostAnswers(t, h, "")
	})
	t.Run("restarted", func(t *testing.T) {
		h := discordtest.NewHarness(discordtest.New(t, discordtest.Options{ForgetNonces: true}), testLogger(t))
		bottest.RunLostPromptBeforeRestart(t, h)
	})
}
