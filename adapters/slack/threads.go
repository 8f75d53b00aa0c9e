package slack

import (
	"context"
	"fmt"
	"sync"

	"github.com/slack-go/slack"
)

// threadMetadata marks the root messages of table threads, so that the
// newest one can be found again after a restart.
const threadMetadata = "roundtable_thread"

// historyPage is how many messages a history read asks for: 15, the most
// Slack gives an app not approved for its Marketplace (more is refused
// by no one, but not given either).
const historyPage = 15

// threadIndex knows each channel's newest table thread.
type threadIndex struct {
	api interface {
		GetConversationHistoryContext(context.Context, *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
	}
	pace  *pacer
	botID func() string

	mu     sync.Mutex
	latest map[string]ref // channel → newest thread
}

func newThreadIndex(api *slack.Client, pace *pacer, botID func() string) *threadIndex {
	return &threadIndex{api: api, pace: pace, botID: botID, latest: map[string]ref{}}
}

// started records a thread this process opened.
func (t *threadIndex) started(thread ref) {
	t.mu.Lock()
	t.latest[thread.Channel] = thread
	t.mu.Unlock()
}

// history reads a page of the channel's top-level messages (newest
// first, with metadata), those before latest ("" for the newest), paced
// with the other history reads; it returns the cursor of the next page
// ("" after the last).
func (t *threadIndex) history(ctx context.Context, channel, cursor string) ([]slack.Message, string, error) {
	var res *slack.GetConversationHistoryResponse
	err := t.pace.read(ctx, func(ctx context.Context) (err error) {
		res, err = t.api.GetConversationHistoryContext(ctx, &slack.GetConversationHistoryParameters{
			ChannelID: channel, Cursor: cursor, Limit: historyPage, IncludeAllMetadata: true})
		return err
	})
	if err != nil {
		return nil, "", err
	}
	next := ""
	if res.HasMore {
		next = res.ResponseMetaData.NextCursor
	}
	return res.Messages, next, nil
}

// newest returns channel's newest table thread, asking Slack when this
// process has not opened one there: the thread is looked for among the
// channel's latest page of top-level messages (15, one read).
func (t *threadIndex) newest(ctx context.Context, channel string) (ref, bool, error) {
	t.mu.Lock()
	r, ok := t.latest[channel]
	t.mu.Unlock()
	if ok {
		return r, true, nil
	}
	msgs, _, err := t.history(ctx, channel, "")
	if err != nil {
		return ref{}, false, fmt.Errorf("conversations.history %s: %w", channel, err)
	}
	for _, m := range msgs { // newest first
		if m.Metadata.EventType == threadMetadata && (m.BotID == "" || m.BotID == t.botID() || t.botID() == "") {
			r = ref{Channel: channel, TS: m.Timestamp}
			t.mu.Lock()
			if _, ok := t.latest[channel]; !ok {
				t.latest[channel] = r
			}
			t.mu.Unlock()
			return r, true, nil
		}
	}
	return ref{}, false, nil
}

// partsIndex remembers the later parts of messages split at Slack's size
// limits, so that an edit replaces them too. It is lost on restart; an
// edit then replaces the first part only.
type partsIndex struct {
	mu    sync.Mutex
	parts map[ref][]string // first part → later parts' ts
}

func newPartsIndex() *partsIndex { return &partsIndex{parts: map[ref][]string{}} }

func (x *partsIndex) put(first ref, rest []string) {
	if len(rest) == 0 {
		return
	}
	x.mu.Lock()
	x.parts[first] = rest
	x.mu.Unlock()
}

func (x *partsIndex) get(first ref) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.parts[first]
}
