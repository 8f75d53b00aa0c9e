package discordtest

import (
	"net/http"
	"strconv"
)

// listMessages answers GET channels/{ch}/messages as Discord does: the
// latest messages first, at most limit (1 to 100, default 50), before or
// after a message ID when asked. It needs Read Message History; a Blind
// outage fails it.
func (s *Server) listMessages(w http.ResponseWriter, r *http.Request) {
	if s.InterceptRead(w) {
		return
	}
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100 {
			apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: limit must be 1 to 100")
			return
		}
		limit = n
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.knownChannel(w, r.PathValue("ch"))
	if ch == nil {
		return
	}
	if !s.botMay(w, ch, permView|permHistory) {
		return
	}
	before, after := snowflake(r.URL.Query().Get("before")), snowflake(r.URL.Query().Get("after"))
	out := []map[string]any{}
	msgs := s.messages[ch.ID]
	for i := len(msgs) - 1; i >= 0 && len(out) < limit; i-- {
		id := snowflake(msgs[i].ID)
		if (before > 0 && id >= before) || id <= after {
			continue
		}
		out = append(out, s.messageJSON(msgs[i]))
	}
	writeJSON(w, http.StatusOK, out)
}

// snowflake parses an ID; anything else is 0.
func snowflake(id string) int64 {
	n, _ := strconv.ParseInt(id, 10, 64)
	return n
}

// isPost tells a new message (a create or a webhook execution) from an
// edit, for a Blind outage.
func isPost(r *http.Request) bool { return r.Method == http.MethodPost }
