package slackfake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Direct messages and files: conversations.open and Slack's external
// upload flow (files.getUploadURLExternal, a POST of the bytes to the
// returned upload URL, files.completeUploadExternal).

// UploadMethod is the name under which RateLimit and Calls count the POSTs
// of files' bytes to their upload URLs.
const UploadMethod = "upload"

// maxUpload bounds an uploaded file's size.
const maxUpload = 10 << 20

// File is a file shared with files.completeUploadExternal.
type File struct {
	ID      string
	Name    string // the filename given to files.getUploadURLExternal
	Title   string
	Channel string // where it was shared
	User    string // the DM's member, when shared in a direct message
	Comment string // initial_comment, mrkdwn
	Data    []byte
}

// pending is a file between files.getUploadURLExternal and its completion.
type pending struct {
	name     string
	length   int
	data     []byte
	uploaded bool
}

// DM is the ID of the direct message between the bot and user.
func DM(user string) string { return "D" + user }

// openDM answers conversations.open for one user: their DM channel.
func (s *Server) openDM(req request) (map[string]any, error) {
	users := strings.Split(req.get("users"), ",")
	if req.get("users") == "" || len(users) != 1 {
		return nil, fmt.Errorf("not_supported") // the fake opens 1:1 DMs only
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	user := users[0]
	if _, ok := s.users[user]; !ok {
		return nil, fmt.Errorf("user_not_found")
	}
	id := DM(user)
	_, open := s.dms[id]
	s.dms[id] = user
	s.channels[id] = ""
	return map[string]any{"channel": map[string]any{"id": id, "is_im": true, "user": user}, "no_op": open,
		"already_open": open}, nil
}

// uploadURL answers files.getUploadURLExternal: an upload URL on the fake
// itself (slack-go sends the token only there) and the file's ID.
func (s *Server) uploadURL(req request) (map[string]any, error) {
	length, err := strconv.Atoi(req.get("length"))
	if req.get("filename") == "" || err != nil || length <= 0 || length > maxUpload {
		return nil, fmt.Errorf("invalid_arguments")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.nextID("F")
	s.uploads[id] = &pending{name: req.get("filename"), length: length}
	return map[string]any{"upload_url": s.http.URL + "/upload/" + id, "file_id": id}, nil
}

// serveUpload takes a file's bytes, multipart (field "file") or raw, and
// answers like Slack's upload URL: 200 with "OK - <length>". Bytes whose
// length differs from the announced one are refused with 400.
func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request) {
	if wait, limited := s.limited(UploadMethod); limited {
		w.Header().Set("Retry-After", strconv.Itoa(wait))
		http.Error(w, "ratelimited", http.StatusTooManyRequests)
		return
	}
	data, err := uploadedBytes(w, r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	id := strings.TrimPrefix(r.URL.Path, "/upload/")
	s.mu.Lock()
	p, ok := s.uploads[id]
	switch {
	case !ok:
		s.mu.Unlock()
		http.Error(w, "no such upload", http.StatusNotFound)
		return
	case len(data) != p.length:
		s.mu.Unlock()
		http.Error(w, fmt.Sprintf("%d bytes, announced %d", len(data), p.length), http.StatusBadRequest)
		return
	}
	p.data, p.uploaded = data, true
	s.mu.Unlock()
	_, _ = fmt.Fprintf(w, "OK - %d", len(data))
	s.notify()
}

func uploadedBytes(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.Method != http.MethodPost {
		return nil, fmt.Errorf("method %s, want POST", r.Method)
	}
	body := http.MaxBytesReader(w, r.Body, maxUpload+1<<20)
	if !strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		return io.ReadAll(body)
	}
	r.Body = body
	f, _, err := r.FormFile("file")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// completeUpload answers files.completeUploadExternal: the uploaded files
// are shared in channel_id as one message of the bot with the initial
// comment as its text. Shared in a DM, they are recorded for its member
// (Files, Harness.Private). Like Slack without a message.im subscription,
// the app gets no event for it.
func (s *Server) completeUpload(req request) (map[string]any, error) {
	var sums []struct{ ID, Title string }
	if err := json.Unmarshal([]byte(req.get("files")), &sums); err != nil || len(sums) == 0 {
		return nil, fmt.Errorf("invalid_arguments")
	}
	channel, comment := req.get("channel_id"), req.get("initial_comment")
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkPlace(channel, req.get("thread_ts")); err != nil {
		return nil, err
	}
	var files []File
	for _, sum := range sums {
		p, ok := s.uploads[sum.ID]
		if !ok || !p.uploaded {
			return nil, fmt.Errorf("file_not_found")
		}
		files = append(files, File{ID: sum.ID, Name: p.name, Title: sum.Title, Channel: channel, User: s.dms[channel],
			Comment: comment, Data: p.data})
	}
	m := &Message{Channel: channel, ThreadTS: req.get("thread_ts"), TS: s.nextTS(), User: BotUserID, BotID: BotID,
		Text: comment, Files: files}
	s.messages[channel] = append(s.messages[channel], m)
	out := make([]map[string]any, len(files))
	for i, f := range files {
		delete(s.uploads, f.ID)
		out[i] = map[string]any{"id": f.ID, "title": f.Title}
		if f.User != "" {
			s.private[f.User] = append(s.private[f.User], private{File: &f})
		}
	}
	return map[string]any{"files": out}, nil
}

// Files returns the files user received in their direct message, in order.
func (s *Server) Files(user string) []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []File
	for _, p := range s.private[user] {
		if p.File != nil {
			out = append(out, *p.File)
		}
	}
	return out
}

// text is how Harness.Private shows a received file: a line naming it,
// then its content.
func (f File) text() string {
	return fmt.Sprintf("file %s (%d bytes): %s\n%s", f.Name, len(f.Data), BotMarkdown(f.Comment), f.Data)
}
