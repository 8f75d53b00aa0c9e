package discord

import (
	"context"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

var _ bot.Whisperer = (*Platform)(nil)

// Whisper implements bot.Whisperer with a direct message: Discord has no
// ephemeral message outside an interaction. channel is not used.
func (p *Platform) Whisper(ctx context.Context, _, user string, m bot.Message) error {
	dm, err := p.s.UserChannelCreate(user, discordgo.WithContext(ctx))
	if err != nil {
		return wrap("open a direct message to "+user, final(err))
	}
	for _, part := range split(m.Text, maxText) {
		_, err := p.s.ChannelMessageSendComplex(dm.ID, &discordgo.MessageSend{Content: part, AllowedMentions: noMentions()}, discordgo.WithContext(ctx))
		if err != nil {
			return wrap("direct message to "+user, final(err))
		}
	}
	return nil
}
