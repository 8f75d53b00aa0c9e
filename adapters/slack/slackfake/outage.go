package slackfake

import "net/http"

// outageMethods are the bot's posts and edits, which fail in an outage
// (bottest.HTTPOutage, embedded in Server); other methods and Socket Mode
// keep working. A Blind outage also fails the reads of historyMethods.
var (
	outageMethods  = map[string]bool{"chat.postMessage": true, "chat.update": true}
	historyMethods = map[string]bool{"conversations.history": true, "conversations.replies": true}
)

// SetOutage implements bottest.Outager.
func (h *Harness) SetOutage(down bool) { h.Fake.SetOutage(down) }

// Failures implements bottest.Outager.
func (h *Harness) Failures() int { return h.Fake.Failures() }

// LoseAnswers implements bottest.LoseAnswerer.
func (h *Harness) LoseAnswers(lost bool) { h.Fake.LoseAnswers(lost) }

// Blind implements bottest.Blinder.
func (h *Harness) Blind(blind bool) { h.Fake.Blind(blind) }

// failCall fails a call of method if an outage is on, or a history read
// the app has no scope for.
func (s *Server) failCall(w http.ResponseWriter, r *http.Request, method string) bool {
	if historyMethods[method] {
		if s.opt.NoHistory {
			writeJSON(w, map[string]any{"ok": false, "error": "missing_scope", "needed": "channels:history", "provided": "chat:write"})
			return true
		}
		return s.InterceptRead(w)
	}
	return outageMethods[method] && s.Intercept(w, r, func(w http.ResponseWriter, r *http.Request) { s.answer(w, r, method) })
}

// isPost tells chat.postMessage from chat.update, for a Blind outage.
func isPost(r *http.Request) bool { return r.URL.Path == "/api/chat.postMessage" }
