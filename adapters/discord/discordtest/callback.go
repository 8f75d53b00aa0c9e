package discordtest

import (
	"fmt"
	"net/http"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// callback takes an interaction's first response: a message (ephemeral or
// not), a deferral, or a modal. A second first response is refused, as
// Discord does.
func (s *Server) callback(w http.ResponseWriter, r *http.Request) {
	var cb callbackBody
	files, err := readPayload(r, &cb)
	if err != nil {
		apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.interactions[r.PathValue("id")]
	switch {
	case it == nil || it.Token != r.PathValue("token"):
		apiError(w, http.StatusNotFound, 10062, "Unknown interaction")
		return
	case it.acked:
		apiError(w, http.StatusBadRequest, 40060, "Interaction has already been acknowledged.")
		return
	}
	if err := s.respond(it, cb, files); err != nil {
		apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: "+err.Error())
		return
	}
	it.acked = true
	if cb.Type != respondDeferred {
		it.markAnswered()
	}
	w.WriteHeader(http.StatusNoContent)
}

// respond records what an interaction's first response shows; the caller
// holds mu.
func (s *Server) respond(it *interaction, cb callbackBody, files []File) error {
	data := cb.Data
	if data == nil {
		data = &messageBody{}
	}
	switch cb.Type {
	case respondMessage:
		if err := validateMessage(data.Content, data.Components, len(files)); err != nil {
			return err
		}
		s.answer(it, data.Content, data.Flags&flagEphemeral != 0, files)
	case respondDeferred:
		it.deferred = data.Flags&flagEphemeral != 0
		s.stats.Deferred++
	case respondUpdate6, respondUpdate7:
	case respondModal:
		if err := validateModal(data); err != nil {
			return err
		}
		s.modals[it.User.ID] = &modal{body: *data, channel: it.Channel}
		s.private[it.User.ID] = append(s.private[it.User.ID], bottest.Private{Form: formOf(data)})
	default:
		return fmt.Errorf("unknown response type %d", cb.Type)
	}
	return nil
}

// answer shows an interaction's answer: to its user alone when ephemeral,
// else in its channel. The caller holds mu.
func (s *Server) answer(it *interaction, text string, ephemeral bool, files []File) map[string]any {
	if !ephemeral {
		m := s.addMessage(it.Channel, BotID, "bot", "", text, nil)
		m.files = files
		return s.messageJSON(m)
	}
	shown := text
	for _, f := range files {
		shown += fmt.Sprintf("\nfile %s (%d bytes)", f.Name, len(f.Data))
	}
	s.private[it.User.ID] = append(s.private[it.User.ID], bottest.Private{Text: shown})
	s.files[it.User.ID] = append(s.files[it.User.ID], files...)
	return map[string]any{"id": s.newID(), "channel_id": it.Channel, "content": text, "flags": flagEphemeral,
		"author": botUser(), "type": 0}
}

func formOf(m *messageBody) *bottest.Form {
	f := &bottest.Form{ID: m.CustomID, Title: m.Title}
	for _, r := range m.Components {
		for _, c := range r.Components {
			f.Fields = append(f.Fields, c.CustomID)
		}
	}
	return f
}
