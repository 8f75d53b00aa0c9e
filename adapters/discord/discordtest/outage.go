package discordtest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"time"
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

// LoseAnswers makes the outage take the bot's writes and then drop the
// connection before answering, as when a connection breaks after the
// request was sent.
func (s *Server) LoseAnswers(lost bool) {
	s.mu.Lock()
	s.lost = lost
	s.mu.Unlock()
}

// Failures returns how many of the bot's writes failed in outages.
func (s *Server) Failures() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failures
}

// failWrite fails r if an outage is on and r is a message write; when
// answers are lost, h takes r first.
func (s *Server) failWrite(w http.ResponseWriter, r *http.Request, h http.HandlerFunc) bool {
	if !isMessageWrite(r) {
		return false
	}
	s.mu.Lock()
	if !s.outage {
		s.mu.Unlock()
		return false
	}
	s.failures++
	lost := s.lost
	drop := lost || s.failures%2 == 0
	s.mu.Unlock()
	if lost {
		h(httptest.NewRecorder(), r)
	}
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

// nonceWindow is how long Discord remembers a nonce.
const nonceWindow = 5 * time.Minute

// byNonce returns the bot's message in ch created with body's enforced
// nonce, if there is one; the caller holds mu.
func (s *Server) byNonce(ch string, body messageBody) *message {
	if !body.EnforceNonce || body.Nonce == "" {
		return nil
	}
	for _, m := range s.messages[ch] {
		if m.nonce == body.Nonce && m.AuthorID == BotID && time.Since(m.createdAt) < nonceWindow {
			return m
		}
	}
	return nil
}
