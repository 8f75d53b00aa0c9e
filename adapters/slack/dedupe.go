package slack

import (
	"context"
	"fmt"
	"strconv"

	"github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/bot"
)

// A post the bot sends again, because the answer to an earlier attempt
// was lost, must not show twice. Slack has no idempotent post, so every
// part of a keyed post (bot.Message.Key) carries its key and part number
// in its message metadata. Before a post that may have got through
// (bot.Message.MaybeSent: the bot retries it, or a new process delivers
// what an earlier one may have sent) is sent, the thread, or the
// channel's latest page outside a thread, is searched for its parts, and
// only the parts not there are posted. The bot decides when to look, so
// the check works across a restart.

// postMetadata marks the bot's keyed posts.
const postMetadata = "roundtable_post"

// repliesPage is how many messages a search reads per call.
const repliesPage = 200

// keyMetadata is the option that marks part i of a post with its key.
func keyMetadata(key string, i int) slack.MsgOption {
	return slack.MsgOptionMetadata(slack.SlackMetadata{EventType: postMetadata,
		EventPayload: map[string]any{"key": key, "part": strconv.Itoa(i)}})
}

// findKeyed returns the ts of each part of the bot's post under key found
// in where's thread (or, outside a thread, the channel's latest page), by
// part number.
func (p *Platform) findKeyed(ctx context.Context, where ref, key string) (map[int]string, error) {
	var msgs []slack.Message
	var err error
	if where.TS == "" {
		msgs, err = p.threads.history(ctx, where.Channel)
	} else {
		msgs, err = p.replies(ctx, where)
	}
	if err != nil {
		return nil, err
	}
	found := map[int]string{}
	for _, m := range msgs {
		if m.Metadata.EventType != postMetadata || m.Metadata.EventPayload["key"] != key {
			continue
		}
		i := partNumber(m.Metadata.EventPayload["part"])
		if _, dup := found[i]; !dup || m.Timestamp < found[i] {
			found[i] = m.Timestamp
		}
	}
	return found, nil
}

// earlier looks for the parts of a post that may have been sent already.
// When Slack refuses the search itself (missing_scope without
// channels:history, say) the post counts as not sent, which is logged: a
// repeat is better than a loss. A channel the app may not use is refused
// as the post would be; other errors are returned to be retried.
func (p *Platform) earlier(ctx context.Context, where ref, key string) (map[int]string, error) {
	have, err := p.findKeyed(ctx, where, key)
	if err == nil {
		return have, nil
	}
	err = p.refused(where.String(), err)
	if bot.Permanent(err) {
		if _, refused := bot.Refused(err); !refused {
			p.log.Warn("cannot look for an earlier attempt of a post; posting it again", "channel", where.String(), "err", err)
			return nil, nil
		}
	}
	return nil, err
}

// partNumber reads a part number from metadata (a post marked before
// parts were numbered is part 0).
func partNumber(v any) int {
	n, _ := strconv.Atoi(fmt.Sprint(v))
	return n
}

// replies reads a whole thread, with metadata.
func (p *Platform) replies(ctx context.Context, where ref) ([]slack.Message, error) {
	var all []slack.Message
	cursor := ""
	for {
		var page []slack.Message
		var more bool
		err := p.pace.retry(ctx, func(ctx context.Context) (err error) {
			page, more, cursor, err = p.api.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
				ChannelID: where.Channel, Timestamp: where.TS, Cursor: cursor, Limit: repliesPage, IncludeAllMetadata: true})
			return err
		})
		if err != nil {
			return nil, err
		}
		all = append(all, page...)
		if !more || cursor == "" {
			return all, nil
		}
	}
}
