package discordtest

import (
	"encoding/json"
	"net/http"
)

// Thread archiving. Discord archives a thread after its auto-archive
// duration without activity (ArchiveThread does it at once). In an
// archived thread messages cannot be edited (400 "Thread is archived",
// code 50083) until the thread is unarchived with PATCH /channels/{id}
// {"archived": false}, which needs Send Messages in Threads. Discord's
// documentation says a new message unarchives an unlocked thread by
// itself, yet bots report posts refused with 50083 too; the fake refuses
// posts and webhook executions as well, the stricter case, so an adapter
// that passes against it unarchives first either way.

// ArchiveThread archives a thread, sending THREAD_UPDATE as Discord does.
func (s *Server) ArchiveThread(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notify()
	ch := s.channels[id]
	ch.Archived = true
	s.dispatchLocked("THREAD_UPDATE", channelJSON(ch))
}

// ArchiveThreadSilently archives a thread without telling the bot, as
// when it missed the THREAD_UPDATE while reconnecting.
func (s *Server) ArchiveThreadSilently(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.channels[id].Archived = true
}

// Archived reports whether a thread is archived.
func (s *Server) Archived(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[id]
	return ch != nil && ch.Archived
}

// open answers 400 Thread is archived, and returns false, when ch is an
// archived thread; the caller holds mu.
func (s *Server) open(w http.ResponseWriter, ch *channel) bool {
	if ch.Archived {
		apiError(w, http.StatusBadRequest, errThreadArchived, msgThreadIsArchived)
		return false
	}
	return true
}

// editChannel takes a thread's archived flag, the one channel edit the
// bot makes.
func (s *Server) editChannel(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Archived *bool `json:"archived"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		apiError(w, http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.knownChannel(w, r.PathValue("ch"))
	switch {
	case ch == nil:
		return
	case body.Archived == nil || ch.Parent == "":
		apiError(w, http.StatusBadRequest, 50035, "Invalid Form Body: the fake edits only threads' archived flag")
		return
	case !s.botMay(w, ch, permSendInThreads):
		return
	}
	ch.Archived = *body.Archived
	s.dispatchLocked("THREAD_UPDATE", channelJSON(ch))
	writeJSON(w, http.StatusOK, channelJSON(ch))
}
