package discord_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestLostAnswersDoNotDuplicatePosts: the fake Discord takes every other
// post and edit and loses its answer; the bot sends them again with the
// same enforced nonce and each shows once. The table has no agent: their
// webhook posts take no nonce (see nonce.go).
func TestLostAnswersDoNotDuplicatePosts(t *testing.T) {
	h := discordtest.NewHarness(discordtest.New(t, discordtest.Options{}), testLogger(t))
	bottest.RunLostAnswers(t, h, "none")
}
