package slackfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// Channels the app is not in, archived channels, and response URLs.
// Slack refuses the app's calls in a public channel it has not joined with
// not_in_channel, in a private one it is not in with channel_not_found
// (it cannot see it), and in an archived channel with is_archived. Slash
// commands still reach the app from such channels, with a response_url
// that answers the user privately wherever they are (5 times).

// chanState is what the app may do in a channel.
type chanState struct {
	outside  bool // the app is not a member
	private  bool
	archived bool
}

// maxResponses is how often a response_url may be used.
const maxResponses = 5

// AddOutsideChannel adds a channel the app is not a member of; a private
// one it cannot see at all.
func (s *Server) AddOutsideChannel(id, name string, private bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channels[id] = name
	s.states[id] = chanState{outside: true, private: private}
}

// ArchiveChannel archives a channel.
func (s *Server) ArchiveChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.states[id]
	st.archived = true
	s.states[id] = st
}

// appMay returns Slack's error for an app call in channel, if any. The
// caller holds mu.
func (s *Server) appMay(channel string) error {
	st := s.states[channel]
	switch {
	case st.outside && st.private:
		return fmt.Errorf("channel_not_found")
	case st.archived:
		return fmt.Errorf("is_archived")
	case st.outside:
		return fmt.Errorf("not_in_channel")
	}
	return nil
}

// hook is a response_url: whose act issued it, and where.
type hook struct {
	user, channel string
	used          int
}

// responseURL issues a response_url for u's act in channel. The caller
// holds mu.
func (s *Server) responseURL(user, channel, kind, trigger string) string {
	s.hooks[trigger] = &hook{user: user, channel: channel}
	return s.http.URL + "/hooks/" + kind + "/" + trigger
}

// serveHook takes a message posted to a response_url: the user who acted
// is shown it privately (response_type "ephemeral", the default); the
// fake refuses "in_channel" responses, which the app does not send, and
// bodies with fields a response_url message does not have (such as the
// empty "metadata" slack-go adds), stricter than Slack, so that what the
// app sends is only the message.
func (s *Server) serveHook(w http.ResponseWriter, r *http.Request) {
	trigger := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
	var body struct {
		Text            string  `json:"text"`
		ResponseType    string  `json:"response_type"`
		Blocks          []Block `json:"blocks"`
		ReplaceOriginal bool    `json:"replace_original"`
		DeleteOriginal  bool    `json:"delete_original"`
		ThreadTS        string  `json:"thread_ts"`
		Mrkdwn          *bool   `json:"mrkdwn"`
	}
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&body); err != nil {
		http.Error(w, "invalid_payload", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	h := s.hooks[trigger]
	switch {
	case h == nil || h.used >= maxResponses:
		s.mu.Unlock()
		http.Error(w, "expired_url", http.StatusNotFound)
		return
	case body.ResponseType == "in_channel" || checkMessage(body.Text, body.Blocks) != nil:
		s.mu.Unlock()
		http.Error(w, "invalid_payload", http.StatusBadRequest)
		return
	}
	h.used++
	e := &Ephemeral{Channel: h.channel, User: h.user, Text: body.Text, Blocks: body.Blocks}
	s.private[h.user] = append(s.private[h.user], private{Ephemeral: e})
	s.mu.Unlock()
	s.notify()
	writeJSON(w, map[string]any{"ok": true})
}
