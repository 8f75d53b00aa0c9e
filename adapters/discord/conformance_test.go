package discord_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// TestConformance runs the suite every adapter passes, over real
// discordgo and real sockets against the fake Discord.
func TestConformance(t *testing.T) {
	bottest.Run(t, func(t *testing.T) bottest.Harness {
		return discordtest.NewHarness(discordtest.New(t, discordtest.Options{}), testLogger(t))
	}, bottest.Options{})
}
