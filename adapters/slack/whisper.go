package slack

import (
	"context"

	"github.com/roundtable-ai/roundtable/bot"
)

var _ bot.Whisperer = (*Platform)(nil)

// Whisper implements bot.Whisperer: an ephemeral message to user in
// channel (in its thread when channel is a thread), which only that user
// sees. The organiser's audit summaries come this way.
func (p *Platform) Whisper(ctx context.Context, channel, user string, m bot.Message) error {
	where := parseRef(channel)
	return p.ephemeral(ctx, user, origin{Channel: where.Channel, ThreadTS: where.TS}, m.Text)
}
