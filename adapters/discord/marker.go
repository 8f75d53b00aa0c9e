package discord

import (
	"context"
	"crypto/sha256"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// An agent's post goes out through a webhook, and a webhook execution
// takes no nonce (Discord's execute-webhook parameters have none); the
// bot's own posts take one, but Discord remembers it for a few minutes
// only, and an outage or a restart can last longer. So every part of a
// keyed post also ends with an invisible marker derived from its key and
// part: zero-width characters, which Discord keeps (they are not
// whitespace) and clients do not show; an edit keeps it. Before a part
// whose earlier attempt may have got through (bot.Message.MaybeSent) is
// sent again, the channel's latest messages are searched for one by the
// same author (the bot, or the channel's webhook) ending with its marker;
// if one is there, that is the part. The author check keeps a person who
// pasted a post's text, marker and all, from passing for it.

// markerDigits are the four zero-width characters a marker is written
// in, two bits each.
var markerDigits = [4]rune{'\u200b', '\u200c', '\u200d', '\u2060'}

// markerBytes is how much of the key's hash a marker carries: 64 bits.
const markerBytes = 8

// markerLen is a marker's length in characters: a word joiner, which
// keeps the marker from joining the text before it, then the digits.
const markerLen = 1 + markerBytes*4

// lookBack is how many of a channel's latest messages a search reads
// (Discord's largest page). The part looked for is the bot's latest in
// the channel (posts go out in order per channel), so only people's
// messages since can push it further back.
const lookBack = 100

// markerFor returns the marker of part i of the post under key ("" without
// a key).
func markerFor(key string, i int) string {
	if key == "" {
		return ""
	}
	h := sha256.Sum256([]byte(nonceFor(key, i)))
	var b strings.Builder
	b.WriteRune('\u2060')
	for _, c := range h[:markerBytes] {
		for shift := 6; shift >= 0; shift -= 2 {
			b.WriteRune(markerDigits[(c>>shift)&3])
		}
	}
	return b.String()
}

// findMarked returns the ID of the message in channel that ends with
// mark and was posted by author (the bot's user ID, or a webhook's ID),
// if it is among the channel's latest messages.
func (p *Platform) findMarked(ctx context.Context, channel, author, mark string) (string, bool, error) {
	msgs, err := p.s.ChannelMessages(channel, lookBack, "", "", "", discordgo.WithContext(ctx))
	if err != nil {
		return "", false, wrap("look for an earlier attempt in "+channel, p.refused(ctx, channel, discordgo.PermissionReadMessageHistory, err))
	}
	for _, m := range msgs {
		by := m.WebhookID
		if by == "" && m.Author != nil {
			by = m.Author.ID
		}
		if by == author && strings.HasSuffix(m.Content, mark) {
			return m.ID, true, nil
		}
	}
	return "", false, nil
}

// earlierPart looks for a part that may have been sent already. Without
// the Read Message History permission it cannot look, and takes the part
// as not sent, which it logs: a repeat is better than a loss.
func (p *Platform) earlierPart(ctx context.Context, channel, author, mark string) (string, bool, error) {
	id, found, err := p.findMarked(ctx, channel, author, mark)
	if _, refused := bot.Refused(err); refused {
		p.log.Warn("cannot look for an earlier attempt of a post; posting it again", "channel", channel, "err", err)
		return "", false, nil
	}
	return id, found, err
}
