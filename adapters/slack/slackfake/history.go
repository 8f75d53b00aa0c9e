package slackfake

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// The fake's conversations.history and conversations.replies, paged as
// Slack pages them (limit, cursor, has_more, oldest, latest, inclusive)
// and, for an app not approved for the Marketplace (Options.NotMarketplace),
// held to Slack's limits for such apps.

// Page sizes of the history methods.
const (
	notMarketplacePage = 15  // the most and the default for an app outside the Marketplace
	defaultPage        = 100 // conversations.history's default otherwise
	maxPage            = 999
)

// readLimited applies the history methods' limit of one call per window
// for an app outside the Marketplace, with the seconds to wait; the caller
// holds mu.
func (s *Server) readLimited(method string) (int, bool) {
	if !s.opt.NotMarketplace || (method != "conversations.history" && method != "conversations.replies") {
		return 0, false
	}
	now := s.opt.Clock()
	if opened, ok := s.reads[method]; ok && now.Sub(opened) < s.opt.HistoryWindow {
		return int(math.Ceil(opened.Add(s.opt.HistoryWindow).Sub(now).Seconds())), true
	}
	s.reads[method] = now
	return 0, false
}

// window is a history call's paging: which messages, how many, from where.
type window struct {
	oldest, latest string
	inclusive      bool
	limit, offset  int
	meta           bool
}

func (s *Server) window(req request) window {
	w := window{oldest: req.get("oldest"), latest: req.get("latest"), meta: truthy(req.get("include_all_metadata")),
		inclusive: truthy(req.get("inclusive"))}
	w.limit, _ = strconv.Atoi(req.get("limit"))
	most, def := maxPage, defaultPage
	if s.opt.NotMarketplace {
		most, def = notMarketplacePage, notMarketplacePage
	}
	if w.limit <= 0 {
		w.limit = def
	}
	w.limit = min(w.limit, most)
	w.offset, _ = strconv.Atoi(strings.TrimPrefix(req.get("cursor"), "next:"))
	return w
}

func truthy(v string) bool { return v == "1" || v == "true" }

// holds reports whether ts is within the window's oldest and latest.
func (w window) holds(ts string) bool {
	after := w.oldest == "" || tsLess(w.oldest, ts) || (w.inclusive && ts == w.oldest)
	before := w.latest == "" || tsLess(ts, w.latest) || (w.inclusive && ts == w.latest)
	return after && before
}

// page cuts msgs (in the order they are listed) to the window's page.
func (w window) page(msgs []*Message) map[string]any {
	end := min(len(msgs), w.offset+w.limit)
	var out []map[string]any
	for _, m := range msgs[min(w.offset, end):end] {
		item := map[string]any{"type": "message", "ts": m.TS, "user": m.User, "text": m.Text}
		if m.ThreadTS != "" {
			item["thread_ts"] = m.ThreadTS
		}
		if m.BotID != "" {
			item["bot_id"] = m.BotID
		}
		if m.Username != "" {
			item["username"] = m.Username
		}
		if w.meta && m.Metadata != nil {
			item["metadata"] = m.Metadata
		}
		out = append(out, item)
	}
	res := map[string]any{"messages": out, "has_more": end < len(msgs)}
	if end < len(msgs) {
		res["response_metadata"] = map[string]any{"next_cursor": fmt.Sprintf("next:%d", end)}
	}
	return res
}

// history lists a channel's top-level messages, newest first.
func (s *Server) history(req request) (map[string]any, error) {
	w := s.window(req)
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := req.get("channel")
	if _, ok := s.channels[ch]; !ok {
		return nil, fmt.Errorf("channel_not_found")
	}
	if st := s.states[ch]; st.outside {
		return nil, s.appMay(ch)
	}
	all := s.messages[ch]
	var msgs []*Message
	for i := len(all) - 1; i >= 0; i-- {
		if m := all[i]; !m.Deleted && m.ThreadTS == "" && w.holds(m.TS) {
			msgs = append(msgs, m)
		}
	}
	return w.page(msgs), nil
}

// replies lists a thread's root and its replies, oldest first.
func (s *Server) replies(req request) (map[string]any, error) {
	w := s.window(req)
	root := req.get("ts")
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := req.get("channel")
	if _, ok := s.channels[ch]; !ok {
		return nil, fmt.Errorf("channel_not_found")
	}
	var msgs []*Message
	found := false
	for _, m := range s.messages[ch] {
		if m.TS != root && m.ThreadTS != root {
			continue
		}
		found = true
		if !m.Deleted && w.holds(m.TS) {
			msgs = append(msgs, m)
		}
	}
	if !found {
		return nil, fmt.Errorf("thread_not_found")
	}
	return w.page(msgs), nil
}

// formatTS writes t as a Slack timestamp, "seconds.micros".
func formatTS(t time.Time) string {
	return fmt.Sprintf("%d.%06d", t.Unix(), t.Nanosecond()/1000)
}

// tsLess orders Slack timestamps.
func tsLess(a, b string) bool {
	as, af, _ := strings.Cut(a, ".")
	bs, bf, _ := strings.Cut(b, ".")
	if len(as) != len(bs) {
		return len(as) < len(bs)
	}
	if as != bs {
		return as < bs
	}
	return pad(af) < pad(bf)
}

// pad writes a timestamp's fraction with six digits.
func pad(frac string) string {
	if len(frac) < 6 {
		frac += strings.Repeat("0", 6-len(frac))
	}
	return frac
}
