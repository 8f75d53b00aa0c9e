package discordtest

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// Forge clicks, as u, a button with customID on a message of channel that
// never showed it, as a modified client could: Discord passes the
// custom_id on, so the bot must check what it names.
func (s *Server) Forge(ctx context.Context, u bottest.User, channel, messageID, customID string) error {
	return s.interact(ctx, func() (*interaction, error) {
		m := s.findMessage(channel, messageID)
		if m == nil {
			return nil, fmt.Errorf("discordtest: no message %s in %s", messageID, channel)
		}
		return s.sendInteraction(u, channel, 3, map[string]any{"custom_id": customID, "component_type": buttonType}, m)
	})
}
