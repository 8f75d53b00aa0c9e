package discordtest

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"time"
)

func (s *Server) gateway(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"url": "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/ws"})
}

// overwriteCommands replaces the registered commands and returns them.
func (s *Server) overwriteCommands(w http.ResponseWriter, r *http.Request) {
	var cmds []commandDef
	if err := json.NewDecoder(r.Body).Decode(&cmds); err != nil {
		apiError(w, http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
		return
	}
	if r.PathValue("app") != AppID {
		apiError(w, http.StatusForbidden, 50001, "Missing Access")
		return
	}
	for _, c := range cmds {
		if err := validateCommand(c, 0); err != nil {
			apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: "+err.Error())
			return
		}
	}
	s.mu.Lock()
	for i := range cmds {
		cmds[i].ID, cmds[i].ApplicationID, cmds[i].GuildID, cmds[i].Version = s.newID(), AppID, r.PathValue("guild"), "1"
		if cmds[i].Type == 0 {
			cmds[i].Type = 1
		}
	}
	s.commands = cmds
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, cmds)
}

func (s *Server) getChannel(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.knownChannel(w, r.PathValue("ch"))
	if ch == nil {
		return
	}
	writeJSON(w, http.StatusOK, channelJSON(ch))
}

// knownChannel returns the channel id, or nil after answering Unknown
// Channel. s.mu is held.
func (s *Server) knownChannel(w http.ResponseWriter, id string) *channel {
	ch := s.channels[id]
	if ch == nil {
		apiError(w, http.StatusNotFound, 10003, "Unknown Channel")
	}
	return ch
}

// createMessage posts as the bot.
func (s *Server) createMessage(w http.ResponseWriter, r *http.Request) {
	body, files, ok := readMessage(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := r.PathValue("ch")
	if s.directMessage(w, ch, body) {
		return
	}
	c := s.knownChannel(w, ch)
	if c == nil {
		return
	}
	need := sendPerm(c)
	if len(files) > 0 {
		need |= permAttach
	}
	if !s.botMay(w, c, need) || !s.open(w, c) {
		return
	}
	if m := s.byNonce(ch, body); m != nil {
		writeJSON(w, http.StatusOK, s.messageJSON(m))
		return
	}
	m := s.addMessage(ch, BotID, "bot", "", body.Content, body.Components)
	m.files, m.nonce = files, body.Nonce
	writeJSON(w, http.StatusOK, s.messageJSON(m))
}

// editMessage edits one of the bot's own messages.
func (s *Server) editMessage(w http.ResponseWriter, r *http.Request) {
	var body editBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		apiError(w, http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.findMessage(r.PathValue("ch"), r.PathValue("mid"))
	switch {
	case m == nil:
		apiError(w, http.StatusNotFound, 10008, "Unknown Message")
		return
	case m.AuthorID != BotID || m.Webhook != "":
		apiError(w, http.StatusForbidden, 50005, "Cannot edit a message authored by another user")
		return
	case !s.botMay(w, s.channels[m.Channel], permView) || !s.open(w, s.channels[m.Channel]):
		return
	}
	text, rows := m.Text, m.Rows
	if body.Content != nil {
		text = *body.Content
	}
	if body.Components != nil {
		rows = *body.Components
	}
	if err := validateMessage(text, rows, len(m.files)); err != nil {
		apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: "+err.Error())
		return
	}
	m.Text, m.edit = text, time.Now()
	m.setRows(rows)
	s.dispatchLocked("MESSAGE_UPDATE", s.messageJSON(m))
	writeJSON(w, http.StatusOK, s.messageJSON(m))
}

// startThread opens a public thread under a text channel.
func (s *Server) startThread(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
		Type int    `json:"type"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Name == "" || len([]rune(body.Name)) > 100 {
		apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: name must be 1 to 100 characters")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	parent := s.channels[r.PathValue("ch")]
	if parent == nil || parent.Type != 0 {
		apiError(w, http.StatusBadRequest, 50024, "Cannot execute action on this channel type")
		return
	}
	if !s.botMay(w, parent, permCreateThreads) {
		return
	}
	th := &channel{ID: s.newID(), Name: body.Name, Parent: parent.ID, Guild: parent.Guild, Type: 11}
	s.channels[th.ID] = th
	parent.threads = append(parent.threads, th.ID)
	created := channelJSON(th)
	created["newly_created"] = true
	s.dispatchLocked("THREAD_CREATE", created)
	s.record(&message{Channel: parent.ID, AuthorID: BotID, Author: "bot", Text: body.Name, system: true}, nil)
	writeJSON(w, http.StatusCreated, channelJSON(th))
}

func (s *Server) listWebhooks(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.knownChannel(w, r.PathValue("ch")); ch == nil || !s.botMay(w, ch, permManageWebhooks) {
		return
	}
	out := []map[string]any{}
	for _, wh := range s.webhooks {
		if wh.Channel == r.PathValue("ch") {
			out = append(out, webhookJSON(wh))
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) createWebhook(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.Name == "" {
		apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: name is required")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[r.PathValue("ch")]
	if ch == nil || ch.Type != 0 {
		apiError(w, http.StatusBadRequest, 50024, "Cannot execute action on this channel type")
		return
	}
	if !s.botMay(w, ch, permManageWebhooks) {
		return
	}
	wh := &webhook{ID: s.newID(), Channel: ch.ID, Name: body.Name}
	wh.Token = "whtoken-" + wh.ID
	s.webhooks[wh.ID] = wh
	s.stats.WebhooksNew++
	writeJSON(w, http.StatusOK, webhookJSON(wh))
}

// executeWebhook runs a channel webhook, or sends an interaction's
// follow-up when the ID is the application's.
func (s *Server) executeWebhook(w http.ResponseWriter, r *http.Request) {
	body, files, ok := readMessage(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.PathValue("id") == AppID {
		s.followup(w, r.PathValue("token"), body, files)
		return
	}
	wh := s.webhooks[r.PathValue("id")]
	if wh == nil || wh.Token != r.PathValue("token") {
		apiError(w, http.StatusNotFound, 10015, "Unknown Webhook")
		return
	}
	target := wh.Channel
	if th := r.URL.Query().Get("thread_id"); th != "" {
		c := s.channels[th]
		if c == nil || c.Parent != wh.Channel {
			apiError(w, http.StatusBadRequest, 10003, "Unknown Channel: thread_id is not a thread of the webhook's channel")
			return
		}
		if !s.open(w, c) {
			return
		}
		target = th
	}
	name := body.Username
	if name == "" {
		name = wh.Name
	}
	m := s.addMessage(target, wh.ID, name, wh.ID, body.Content, body.Components)
	if r.URL.Query().Get("wait") != "true" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	writeJSON(w, http.StatusOK, s.messageJSON(m))
}

// followup answers an acknowledged interaction again; the caller holds mu.
func (s *Server) followup(w http.ResponseWriter, token string, body messageBody, files []File) {
	it := s.interactions[token]
	if it == nil || !it.acked {
		apiError(w, http.StatusNotFound, 10015, "Unknown Webhook")
		return
	}
	it.followups++
	ephemeral := body.Flags&flagEphemeral != 0 || (it.deferred && it.followups == 1)
	msg := s.answer(it, body.Content, ephemeral, files)
	it.markAnswered()
	writeJSON(w, http.StatusOK, msg)
}

// editWebhookMessage takes an edit of an interaction's answer (@original
// or a follow-up); the fake shows the new text to the interaction's user
// alone, which is what editing a deferred ephemeral answer looks like.
func (s *Server) editWebhookMessage(w http.ResponseWriter, r *http.Request) {
	var body editBody
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		apiError(w, http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.interactions[r.PathValue("token")]
	if r.PathValue("id") != AppID || it == nil || !it.acked {
		apiError(w, http.StatusNotFound, 10015, "Unknown Webhook")
		return
	}
	if body.Content != nil {
		s.answer(it, *body.Content, true, nil)
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": s.newID(), "channel_id": it.Channel, "content": body.Content})
}

// readPayload decodes a JSON body, or a multipart one (payload_json and
// files[n]), into v.
func readPayload(r *http.Request, v any) ([]File, error) {
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		return nil, json.NewDecoder(r.Body).Decode(v)
	}
	var files []File
	mr := multipart.NewReader(r.Body, params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("multipart: %w", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, fmt.Errorf("multipart: %w", err)
		}
		if part.FormName() == "payload_json" {
			if err := json.Unmarshal(data, v); err != nil {
				return nil, fmt.Errorf("payload_json: %w", err)
			}
			continue
		}
		files = append(files, File{Name: part.FileName(), Data: data})
	}
}

// readMessage decodes and validates a message body as Discord does,
// answering 400 itself when it is refused.
func readMessage(w http.ResponseWriter, r *http.Request) (messageBody, []File, bool) {
	var body messageBody
	files, err := readPayload(r, &body)
	if err == nil {
		err = validateMessage(body.Content, body.Components, len(files))
	}
	if err != nil {
		apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: "+err.Error())
		return body, nil, false
	}
	return body, files, true
}
