package discordtest

import (
	"net/http"
	"strings"
)

// SetOutage starts (down) or ends an outage of the bot's writes: while it
// lasts, every message the bot posts or edits, as itself or through a
// webhook, fails before the fake takes it, alternately with a 503 and with
// a dropped connection. Interaction answers and the gateway keep working.
// It implements bottest.Outager.
func (s *Server) SetOutage(down bool) {
	s.mu.Lock()
	s.outage = down
	s.mu.Unlock()
}

// Failures returns how many of the bot's writes failed in outages.
func (s *Server) Failures() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failures
}

// failWrite fails r if an outage is on and r is a message write.
func (s *Server) failWrite(w http.ResponseWriter, r *http.Request) bool {
	if !isMessageWrite(r) {
		return false
	}
	s.mu.Lock()
	if !s.outage {
		s.mu.Unlock()
		return false
	}
	s.failures++
	drop := s.failures%2 == 0
	s.mu.Unlock()
	if drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
	}
	apiError(w, http.StatusServiceUnavailable, 0, "503: Service Unavailable")
	return true
}

// isMessageWrite reports whether r posts or edits a channel message
// (webhook executions included, interaction follow-ups not).
func isMessageWrite(r *http.Request) bool {
	if r.Method != http.MethodPost && r.Method != http.MethodPatch {
		return false
	}
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, "/api/v9/channels/") && strings.Contains(p, "/messages") && !strings.HasSuffix(p, "/threads"):
		return true
	case strings.HasPrefix(p, "/api/v9/webhooks/"):
		return !strings.HasPrefix(p, "/api/v9/webhooks/"+AppID+"/")
	}
	return false
}
