package slack

import (
	"context"
	"sync"

	"github.com/slack-go/slack"
)

// A post the bot sends again, because the answer to the first attempt was
// lost, must not show twice. Slack has no idempotent post, so every keyed
// post (bot.Message.Key) carries its key in its message metadata, and
// before a post whose last attempt failed is sent again, the thread is
// searched for a message with its key: if the first attempt got through,
// its ts is the answer. What failed is remembered in memory only: after a
// crash between a post and its answer, the post can show twice.

// postMetadata marks the bot's keyed posts.
const postMetadata = "roundtable_post"

// repliesPage is how many messages a search reads per call.
const repliesPage = 200

// uncertain is the set of keys whose last post attempt failed.
type uncertain struct {
	mu   sync.Mutex
	keys map[string]bool
}

func (u *uncertain) set(key string, failed bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !failed {
		delete(u.keys, key)
		return
	}
	if u.keys == nil {
		u.keys = map[string]bool{}
	}
	u.keys[key] = true
}

func (u *uncertain) has(key string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.keys[key]
}

// keyMetadata is the option that marks a post with its key.
func keyMetadata(key string) slack.MsgOption {
	return slack.MsgOptionMetadata(slack.SlackMetadata{EventType: postMetadata, EventPayload: map[string]any{"key": key}})
}

// findKeyed returns the ts of the bot's post under key in where's thread,
// if there is one. Outside a thread it reads the channel's latest page.
func (p *Platform) findKeyed(ctx context.Context, where ref, key string) (string, bool, error) {
	var msgs []slack.Message
	var err error
	if where.TS == "" {
		msgs, err = p.latest(ctx, where.Channel)
	} else {
		msgs, err = p.replies(ctx, where)
	}
	if err != nil {
		return "", false, err
	}
	for _, m := range msgs {
		if m.Metadata.EventType == postMetadata && m.Metadata.EventPayload["key"] == key {
			return m.Timestamp, true, nil
		}
	}
	return "", false, nil
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

// latest reads the channel's latest page, with metadata.
func (p *Platform) latest(ctx context.Context, channel string) ([]slack.Message, error) {
	var res *slack.GetConversationHistoryResponse
	err := p.pace.retry(ctx, func(ctx context.Context) (err error) {
		res, err = p.api.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{
			ChannelID: channel, Limit: repliesPage, IncludeAllMetadata: true})
		return err
	})
	if err != nil {
		return nil, err
	}
	return res.Messages, nil
}
