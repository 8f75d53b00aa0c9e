package slackfake

import "net/http"

// outageMethods are the bot's posts and edits, which fail in an outage
// (bottest.HTTPOutage, embedded in Server); other methods and Socket Mode
// keep working.
var outageMethods = map[string]bool{"chat.postMessage": true, "chat.update": true}

// SetOutage implements bottest.Outager.
func (h *Harness) SetOutage(down bool) { h.Fake.SetOutage(down) }

// Failures implements bottest.Outager.
func (h *Harness) Failures() int { return h.Fake.Failures() }

// LoseAnswers implements bottest.LoseAnswerer.
func (h *Harness) LoseAnswers(lost bool) { h.Fake.LoseAnswers(lost) }

// failCall fails a call of method if an outage is on.
func (s *Server) failCall(w http.ResponseWriter, r *http.Request, method string) bool {
	return outageMethods[method] && s.Intercept(w, r, func(w http.ResponseWriter, r *http.Request) { s.answer(w, r, method) })
}
