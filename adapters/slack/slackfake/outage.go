package slackfake

import "net/http"

// outageMethods are the bot's posts and edits, which fail in an outage.
var outageMethods = map[string]bool{"chat.postMessage": true, "chat.update": true}

// SetOutage starts (down) or ends an outage of the bot's posts and edits:
// while it lasts, chat.postMessage and chat.update fail before the fake
// takes them, alternately with a 503 and with a dropped connection. Other
// methods, and Socket Mode, keep working.
func (s *Server) SetOutage(down bool) {
	s.mu.Lock()
	s.outage = down
	s.mu.Unlock()
}

// Failures returns how many posts and edits failed in outages.
func (s *Server) Failures() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.failures
}

// failCall fails a call of method if an outage is on.
func (s *Server) failCall(w http.ResponseWriter, method string) bool {
	if !outageMethods[method] {
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
	defer s.notify()
	if drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
	}
	w.WriteHeader(http.StatusServiceUnavailable)
	return true
}

// SetOutage implements bottest.Outager.
func (h *Harness) SetOutage(down bool) { h.Fake.SetOutage(down) }

// Failures implements bottest.Outager.
func (h *Harness) Failures() int { return h.Fake.Failures() }
