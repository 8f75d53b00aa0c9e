package discordtest

import (
	"net/http"
	"strings"
	"time"
)

// The fake's outage (bottest.HTTPOutage, embedded in Server) fails every
// message the bot posts or edits, as itself or through a webhook;
// interaction answers and the gateway keep working.

// failWrite fails r if an outage is on and r is a message write.
func (s *Server) failWrite(w http.ResponseWriter, r *http.Request, h http.HandlerFunc) bool {
	return isMessageWrite(r) && s.Intercept(w, r, h)
}

func serviceUnavailable(w http.ResponseWriter) {
	apiError(w, http.StatusServiceUnavailable, 0, "503: Service Unavailable")
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
	if !body.EnforceNonce || body.Nonce == "" || s.opts.ForgetNonces {
		return nil
	}
	for _, m := range s.messages[ch] {
		if m.nonce == body.Nonce && m.AuthorID == BotID && time.Since(m.createdAt) < nonceWindow {
			return m
		}
	}
	return nil
}
