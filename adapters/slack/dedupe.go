package slack

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/bot"
)

// A post the bot sends again, because the answer to an earlier attempt
// was lost, must not show twice. Slack has no idempotent post, so every
// part of a keyed post (bot.Message.Key) carries its key and part number
// in its message metadata. Before a post that may have got through
// (bot.Message.MaybeSent: the bot retries it, or a new process delivers
// what an earlier one may have sent) is sent, the thread, or the
// channel's top level, is searched for its parts, and only the parts not
// there are posted. The bot decides when to look, so the check works
// across a restart.
//
// Reading history is dear: an app not approved for Slack's Marketplace
// may call conversations.history and conversations.replies once a minute
// each, for 15 messages a page (Config.HistoryInterval paces every read
// of the workspace, so that none meets an avoidable 429). So a search
// reads the least it can:
//
//   - only for a post whose outcome is unknown: when Slack answered this
//     process's last attempt with an error, nothing got through, and
//     nothing is read;
//   - from the newest message backwards: from the bot's last post there,
//     when this process made it (everything after it, usually one page);
//     otherwise window by window back in time, two minutes, then four
//     times as far each time;
//   - and no further than the first of the bot's posts that belongs to
//     another key: posts go out in order per channel, so an attempt that
//     got through is newer than every post before it.
//
// A search runs outside the channel's lane, so no other post waits for it.

// postMetadata marks the bot's keyed posts.
const postMetadata = "roundtable_post"

// firstWindow is how far back in time a search without a known last post
// reads first; each window after reaches windowGrowth times as far.
const (
	firstWindow  = 2 * time.Minute
	windowGrowth = 4
)

// maxSearchPages bounds the pages one search reads.
const maxSearchPages = 12

// keyMetadata is the option that marks part i of a post with its key.
func keyMetadata(key string, i int) slack.MsgOption {
	return slack.MsgOptionMetadata(slack.SlackMetadata{EventType: postMetadata,
		EventPayload: map[string]any{"key": key, "part": strconv.Itoa(i)}})
}

// outcomes is what this process knows of its own posts: in each place
// (a thread, or a channel's top level) its newest post and the newest one
// of another key before it, and the keys whose last attempt Slack
// refused, so that they were not posted.
type outcomes struct {
	mu      sync.Mutex
	places  map[string]*newest // ref.String() →
	refused map[string]bool    // post key
}

// newest is the newest post in a place, and the newest before it that
// belongs to another key.
type newest struct {
	key, ts string
	before  string
}

func newOutcomes() *outcomes {
	return &outcomes{places: map[string]*newest{}, refused: map[string]bool{}}
}

// posted notes part of the post under key made in where at ts.
func (o *outcomes) posted(where ref, key, ts string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := o.places[where.String()]
	switch {
	case n == nil:
		o.places[where.String()] = &newest{key: key, ts: ts}
	case n.key != key:
		n.key, n.ts, n.before = key, ts, n.ts
	case tsBefore(n.ts, ts):
		n.ts = ts
	}
}

// since is the ts of this process's newest post in where that does not
// belong to key ("" if none): a part of key posted after it may be there.
func (o *outcomes) since(where ref, key string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := o.places[where.String()]
	switch {
	case n == nil:
		return ""
	case n.key != key:
		return n.ts
	}
	return n.before
}

// failed notes how key's attempt ended: refused by Slack (nothing posted)
// or not.
func (o *outcomes) failed(key string, refused bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if refused {
		o.refused[key] = true
	} else {
		delete(o.refused, key)
	}
}

// wasRefused reports, and forgets, that key's last attempt was refused.
func (o *outcomes) wasRefused(key string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	r := o.refused[key]
	delete(o.refused, key)
	return r
}

// slackRefused reports an error that is Slack's refusal (ok false, for
// a reason other than a fault of its own, after which some of the call
// may have been done): nothing was posted.
func slackRefused(err error) bool {
	var se slack.SlackErrorResponse
	return errors.As(err, &se) && (!transient[se.Err] || se.Err == "ratelimited")
}

// found collects the parts of a post met in a search.
type found struct {
	key   string
	root  string         // the thread's root, where a thread's search ends
	parts map[int]string // part → ts
	stop  bool           // met an earlier post of the bot's: no need to read further back
}

// complete reports whether the post's first part was met: its later
// parts, posted after it, were met before it.
func (f *found) complete() bool {
	_, ok := f.parts[0]
	return ok
}

// see takes in a message, newest first.
func (f *found) see(m slack.Message) {
	if f.root != "" && m.Timestamp == f.root {
		f.stop = true // the thread's start
		return
	}
	if m.Metadata.EventType != postMetadata {
		return
	}
	if m.Metadata.EventPayload["key"] != f.key {
		f.stop = true
		return
	}
	i := partNumber(m.Metadata.EventPayload["part"])
	if ts, dup := f.parts[i]; !dup || tsBefore(m.Timestamp, ts) {
		f.parts[i] = m.Timestamp
	}
}

// findKeyed returns the ts of each part of the bot's post under key found
// in where (a thread, or a channel's top level), by part number.
func (p *Platform) findKeyed(ctx context.Context, where ref, key string) (map[int]string, error) {
	f := &found{key: key, root: where.TS, parts: map[int]string{}}
	if where.TS == "" {
		return f.parts, p.searchChannel(ctx, where.Channel, f)
	}
	return f.parts, p.searchThread(ctx, where, f)
}

// searchChannel reads a channel's top level, newest first, page by page.
func (p *Platform) searchChannel(ctx context.Context, channel string, f *found) error {
	cursor := ""
	for range maxSearchPages {
		msgs, next, err := p.threads.history(ctx, channel, cursor)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			f.see(m)
		}
		if f.stop || next == "" || f.complete() {
			return nil
		}
		cursor = next
	}
	return nil
}

// searchThread reads a thread window by window back in time: after the
// bot's newest post there if this process made it, else two minutes,
// eight, thirty-two... back from now, down to the thread's root.
func (p *Platform) searchThread(ctx context.Context, where ref, f *found) error {
	if since := p.outcomes.since(where, f.key); since != "" {
		_, err := p.readWindow(ctx, where, since, "", f, maxSearchPages)
		return err
	}
	latest, span, pages := "", firstWindow, maxSearchPages
	for pages > 0 {
		oldest := formatTS(p.cfg.Now().Add(-span))
		if !tsBefore(where.TS, oldest) {
			oldest = where.TS // the root: the last window
		}
		n, err := p.readWindow(ctx, where, oldest, latest, f, pages)
		if err != nil || f.stop || f.complete() || oldest == where.TS {
			return err
		}
		latest, span, pages = oldest, span*windowGrowth, pages-n
	}
	return nil
}

// readWindow reads the replies of where after oldest and, if set, up to
// latest, in at most pages pages, and has f see them newest first. It
// returns how many pages it read.
func (p *Platform) readWindow(ctx context.Context, where ref, oldest, latest string, f *found, pages int) (int, error) {
	var msgs []slack.Message
	cursor, n := "", 0
	for n < pages {
		var page []slack.Message
		var more bool
		var next string
		err := p.pace.read(ctx, func(ctx context.Context) (err error) {
			// A call met by a 429 is made again with the same cursor.
			page, more, next, err = p.api.GetConversationRepliesContext(ctx, &slack.GetConversationRepliesParameters{
				ChannelID: where.Channel, Timestamp: where.TS, Cursor: cursor, Limit: historyPage,
				Oldest: oldest, Latest: latest, Inclusive: true, IncludeAllMetadata: true})
			return err
		})
		n++
		if err != nil {
			return n, err
		}
		msgs = append(msgs, page...)
		if !more || next == "" {
			break
		}
		cursor = next
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		f.see(msgs[i])
	}
	return n, nil
}

// earlier looks for the parts of a post that may have been sent already.
// When Slack refused this process's last attempt, nothing was posted and
// nothing is read. When Slack refuses the search itself (missing_scope
// without channels:history, say) the post counts as not sent, which is
// logged: a repeat is better than a loss. A channel the app may not use
// is refused as the post would be; other errors are returned to be
// retried.
func (p *Platform) earlier(ctx context.Context, where ref, key string) (map[int]string, error) {
	if p.outcomes.wasRefused(key) {
		return nil, nil
	}
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

// formatTS writes t as a Slack timestamp, "seconds.micros".
func formatTS(t time.Time) string {
	return fmt.Sprintf("%d.%06d", t.Unix(), t.Nanosecond()/1000)
}

// tsBefore orders Slack timestamps ("seconds.micros").
func tsBefore(a, b string) bool {
	as, am := tsParts(a)
	bs, bm := tsParts(b)
	return as < bs || (as == bs && am < bm)
}

// tsParts reads a timestamp's seconds and microseconds.
func tsParts(ts string) (sec, micro int64) {
	s, frac, _ := strings.Cut(ts, ".")
	sec, _ = strconv.ParseInt(s, 10, 64)
	frac = (frac + "000000")[:6]
	micro, _ = strconv.ParseInt(frac, 10, 64)
	return sec, micro
}
