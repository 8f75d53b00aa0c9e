package discordtest

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// dmPrefix marks the IDs of direct-message channels: "dm-<user ID>".
const dmPrefix = "dm-"

// createDM answers POST /users/@me/channels: the bot opens a direct
// message channel with a user. What the bot sends there is shown to that
// user alone (Server.Private).
func (s *Server) createDM(w http.ResponseWriter, r *http.Request) {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.RecipientID == "" {
		apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: recipient_id is required")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": dmPrefix + body.RecipientID, "type": 1,
		"recipients": []map[string]any{{"id": body.RecipientID, "username": "user" + body.RecipientID}}})
}

// directMessage records a message the bot sent in a direct-message
// channel as private to its user; ok is false for other channels.
func (s *Server) directMessage(w http.ResponseWriter, ch string, body messageBody) bool {
	user, ok := strings.CutPrefix(ch, dmPrefix)
	if !ok {
		return false
	}
	s.private[user] = append(s.private[user], bottest.Private{Text: body.Content})
	s.notify()
	writeJSON(w, http.StatusOK, map[string]any{"id": s.newID(), "channel_id": ch, "content": body.Content, "type": 0, "author": botUser()})
	return true
}
