package discord

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/roundtable-ai/roundtable/bot"
)

// An agent's post goes out through a webhook, and a webhook execution
// takes no nonce (Discord's execute-webhook parameters have none); the
// bot's own posts take one, but Discord remembers it for a few minutes
// only, and an outage or a restart can last longer. So before a part
// whose earlier attempt may have got through (bot.Message.MaybeSent) is
// sent again, the channel's latest messages are read for it, by what is
// already in the post, without adding anything people see or copy:
//
//   - the controls of a post carry a mark derived from its key and part
//     at the end of their custom IDs, which clients do not show and which
//     come back without it (unmarked); an edit keeps it, so a phase
//     prompt whose closing edit was merged into the retry (it now has no
//     controls, and another text) is still found by the controls of the
//     attempt that got through;
//   - otherwise the part is the author's newest message in the channel,
//     if that one has the part's text (and, for a webhook, the agent's
//     name): posts go out in order per channel, so an attempt that got
//     through is the author's newest there.
//
// The author (the bot, or the channel's webhook) keeps a person who
// pasted a post's text from passing for it. A bot post without controls
// whose text changed after its lost attempt would not be found, and show
// twice: a repeat is better than a loss.

// markSep starts a mark at the end of a custom ID; the bot's control IDs
// never hold it (they are "rt:<table>:<round>:<verb>").
const markSep = "~~"

// markChars is how many characters of the key's hash a mark carries
// (base64url, 60 bits).
const markChars = 10

// maxCustomID is Discord's limit on a component's custom ID.
const maxCustomID = 100

// lookBack is how many of a channel's latest messages a search reads
// (Discord's largest page).
const lookBack = 100

// markFor returns the mark of part i of the post under key ("" without
// a key).
func markFor(key string, i int) string {
	if key == "" {
		return ""
	}
	h := sha256.Sum256([]byte(nonceFor(key, i)))
	return markSep + base64.RawURLEncoding.EncodeToString(h[:])[:markChars]
}

// marked returns controls with mark at the end of each ID it fits in.
func marked(controls []bot.Control, mark string) []bot.Control {
	if mark == "" || len(controls) == 0 {
		return controls
	}
	out := make([]bot.Control, len(controls))
	for i, c := range controls {
		if len(c.ID)+len(mark) <= maxCustomID {
			c.ID += mark
		}
		out[i] = c
	}
	return out
}

// unmarked returns a custom ID without its mark.
func unmarked(id string) string {
	if i := strings.LastIndex(id, markSep); i >= 0 && len(id)-i == len(markSep)+markChars {
		return id[:i]
	}
	return id
}

// sought is a part looked for among a channel's latest messages.
type sought struct {
	author string // the bot's user ID, or the webhook's ID
	name   string // the agent's name under a webhook ("" for the bot)
	text   string // the part's text, as sent
	mark   string // the part's mark, which its controls carry
}

// byAuthor reports whether m was posted by the author: the webhook, or
// the bot itself.
func (s sought) byAuthor(m *discordgo.Message) bool {
	if m.WebhookID != "" {
		return m.WebhookID == s.author
	}
	return m.Author != nil && m.Author.ID == s.author
}

// is reports whether m, the author's newest message there if newest, is
// the part.
func (s sought) is(m *discordgo.Message, newest bool) bool {
	if s.mark != "" && carries(m.Components, s.mark) {
		return true
	}
	if !newest || strings.TrimSpace(m.Content) != strings.TrimSpace(s.text) {
		return false
	}
	return s.name == "" || (m.Author != nil && m.Author.Username == s.name)
}

// carries reports whether a control among comps has mark.
func carries(comps []discordgo.MessageComponent, mark string) bool {
	for _, c := range comps {
		var id string
		switch c := c.(type) {
		case *discordgo.ActionsRow:
			if carries(c.Components, mark) {
				return true
			}
		case discordgo.ActionsRow:
			if carries(c.Components, mark) {
				return true
			}
		case *discordgo.Button:
			id = c.CustomID
		case *discordgo.SelectMenu:
			id = c.CustomID
		}
		if id != "" && strings.HasSuffix(id, mark) {
			return true
		}
	}
	return false
}

// findPart returns the ID of the part among the channel's latest
// messages, if it is there.
func (p *Platform) findPart(ctx context.Context, channel string, part sought) (string, bool, error) {
	msgs, err := p.s.ChannelMessages(channel, lookBack, "", "", "", discordgo.WithContext(ctx))
	if err != nil {
		return "", false, wrap("look for an earlier attempt in "+channel, p.refused(ctx, channel, discordgo.PermissionReadMessageHistory, err))
	}
	newest := true
	for _, m := range msgs { // newest first
		if !part.byAuthor(m) {
			continue
		}
		if part.is(m, newest) {
			return m.ID, true, nil
		}
		newest = false
	}
	return "", false, nil
}

// earlierPart looks for a part that may have been sent already. Without
// the Read Message History permission it cannot look, and takes the part
// as not sent, which it logs: a repeat is better than a loss.
func (p *Platform) earlierPart(ctx context.Context, channel string, part sought) (string, bool, error) {
	id, found, err := p.findPart(ctx, channel, part)
	if _, refused := bot.Refused(err); refused {
		p.log.Warn("cannot look for an earlier attempt of a post; posting it again", "channel", channel, "err", err)
		return "", false, nil
	}
	return id, found, err
}
