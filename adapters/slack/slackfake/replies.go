package slackfake

import "fmt"

// replies answers conversations.replies: a thread's root and its replies,
// oldest first, in one page; metadata when include_all_metadata is set.
func (s *Server) replies(req request) (map[string]any, error) {
	withMeta := req.get("include_all_metadata") == "1" || req.get("include_all_metadata") == "true"
	root := req.get("ts")
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.channels[req.get("channel")]; !ok {
		return nil, fmt.Errorf("channel_not_found")
	}
	var out []map[string]any
	for _, m := range s.messages[req.get("channel")] {
		if m.Deleted || (m.TS != root && m.ThreadTS != root) {
			continue
		}
		item := map[string]any{"type": "message", "ts": m.TS, "thread_ts": root, "user": m.User, "text": m.Text}
		if m.BotID != "" {
			item["bot_id"] = m.BotID
		}
		if withMeta && m.Metadata != nil {
			item["metadata"] = m.Metadata
		}
		out = append(out, item)
	}
	if out == nil {
		return nil, fmt.Errorf("thread_not_found")
	}
	return map[string]any{"messages": out, "has_more": false}, nil
}
