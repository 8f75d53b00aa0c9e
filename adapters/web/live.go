package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"strconv"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// How often the live stream looks at the table for changes nobody posted
// (an agent acting), and the longest silence before a keep-alive comment.
const (
	statePoll = 3 * time.Second
	keepAlive = 25 * time.Second
)

// serveLive streams a room to one browser as Server-Sent Events. Each
// event's ID is its cursor: a reconnecting EventSource sends it back as
// Last-Event-ID and gets only what it missed.
func (p *Platform) serveLive(w http.ResponseWriter, r *http.Request) {
	roomID := r.PathValue("room")
	if !p.mayOpen(r, roomID, false) {
		writeError(w, http.StatusForbidden, "open this table's join link first")
		return
	}
	p.stream(w, r, roomID)
}

// serveLobbyLive streams the lobby: what the bot said to this browser
// about the tables it started. It needs no link, so its streams are
// bounded (StreamLimits): so many at once, so many per address, each for
// a while only (a browser's EventSource reconnects).
func (p *Platform) serveLobbyLive(w http.ResponseWriter, r *http.Request) {
	leave, code := p.anon.enter(remoteHost(r))
	if code != 0 {
		w.Header().Set("Retry-After", "30")
		writeError(w, code, "too many live streams without a link are open; try again later")
		return
	}
	defer leave()
	ctx, cancel := context.WithTimeout(r.Context(), p.cfg.Streams.Life)
	defer cancel()
	p.stream(w, r.WithContext(ctx), Lobby)
}

func (p *Platform) stream(w http.ResponseWriter, r *http.Request, roomID string) {
	v := p.visitor(w, r)
	flusher, ok := w.(http.Flusher)
	if !ok {
		writeError(w, http.StatusInternalServerError, "streaming is not supported")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	c := parseCursor(r.Header.Get("Last-Event-ID"))
	if c == (cursor{}) {
		c = parseCursor(r.URL.Query().Get("since"))
	}
	// The server's read and write timeouts would cut the stream: it has
	// no deadline to read by, and each write gets its own.
	rc := http.NewResponseController(w)
	if err := rc.SetReadDeadline(time.Time{}); err != nil {
		p.log.Debug("live stream without per-request deadlines", "err", err)
	}
	sw := &streamWriter{w: w, rc: rc, timeout: p.cfg.WriteTimeout}
	sw.extend()
	w.WriteHeader(http.StatusOK)
	p.streamLoop(r.Context(), sw, flusher, roomID, p.user(r, v, roomID), c)
}

// streamWriter gives each write of a live stream its own deadline.
type streamWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

func (s *streamWriter) extend() { _ = s.rc.SetWriteDeadline(time.Now().Add(s.timeout)) } // unsupported: the server's timeout stands

func (s *streamWriter) Write(b []byte) (int, error) {
	s.extend()
	return s.w.Write(b)
}

func (p *Platform) streamLoop(ctx context.Context, w io.Writer, f http.Flusher, roomID string, v bot.User, c cursor) {
	poll := time.NewTicker(statePoll)
	defer poll.Stop()
	told, done := p.inbox.watch(v.ID)
	defer done()
	var lastState []byte
	first, lastSent := true, time.Now()
	for {
		if p.gone(roomID) {
			return // served by another process now: the browser reconnects there
		}
		wake, posted, told := p.sig.wait(), p.rooms.wait(roomID), told()
		u, next := p.updateFor(ctx, roomID, v, c)
		st := stateKey(u.State)
		if first || len(u.Posts) > 0 || len(u.Private) > 0 || !bytes.Equal(st, lastState) {
			if err := writeEvent(w, u); err != nil {
				return
			}
			f.Flush()
			first, lastState, lastSent, c = false, st, time.Now(), next
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-posted:
		case <-told:
		case <-poll.C:
			if time.Since(lastSent) > keepAlive {
				if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
					return
				}
				f.Flush()
				lastSent = time.Now()
			}
		}
	}
}

// stateKey is what decides whether the state changed: all but the
// countdown, which the page runs by itself.
func stateKey(s *stateView) []byte {
	if s == nil {
		return nil
	}
	c := *s
	c.RemainingMS = 0
	b, _ := json.Marshal(c) // plain data: cannot fail
	return b
}

func writeEvent(w io.Writer, u update) error {
	data, err := json.Marshal(u)
	if err != nil {
		return fmt.Errorf("encode update: %w", err)
	}
	if _, err := fmt.Fprintf(w, "id: %s\nevent: update\ndata: %s\n\n", u.Cursor, data); err != nil {
		return fmt.Errorf("write update: %w", err)
	}
	return nil
}

// updateFor is what the browser of user v that saw up to c has not seen,
// with the table's state, and the cursor after it.
func (p *Platform) updateFor(ctx context.Context, roomID string, v bot.User, c cursor) (update, cursor) {
	posts, ver := p.rooms.since(roomID, c.Ver)
	if ver < c.Ver { // the room forgot (no saved rooms across a restart): resend it all
		posts, ver = p.rooms.since(roomID, 0)
	}
	from := c.Priv
	if c.Boot != p.boot {
		from = 0
	}
	items, seq := p.inbox.since(v.ID, roomID, from)
	next := cursor{Ver: ver, Priv: seq, Boot: p.boot}
	u := update{Cursor: next.String()}
	for _, pt := range posts {
		u.Posts = append(u.Posts, viewPost(pt))
	}
	for _, it := range items {
		u.Private = append(u.Private, viewPrivate(p.boot, it, roomID))
	}
	if st, err := p.state(ctx, roomID, roundtable.Viewer{Participant: participantID(v.ID)}); err == nil {
		u.State = viewState(st, v.ID, p.cfg.Now())
		p.opening(ctx, roomID, v, u.State)
	}
	return u, next
}

// serveFeed returns, as JSON, what the live stream would send next: the
// page's way to catch up without a stream.
func (p *Platform) serveFeed(w http.ResponseWriter, r *http.Request) {
	roomID := r.PathValue("room")
	if !p.mayOpen(r, roomID, false) {
		writeError(w, http.StatusForbidden, "open this table's join link first")
		return
	}
	u, _ := p.updateFor(r.Context(), roomID, p.user(r, p.visitor(w, r), roomID), parseCursor(r.URL.Query().Get("since")))
	writeJSON(w, http.StatusOK, u)
}

// serveFile sends a file the bot uploaded for this browser.
func (p *Platform) serveFile(w http.ResponseWriter, r *http.Request) {
	v := p.visitor(w, r)
	seq, err := strconv.ParseUint(r.PathValue("seq"), 10, 64)
	if err != nil {
		writeError(w, http.StatusNotFound, "no such file")
		return
	}
	it, data, err := p.inbox.file(v.ID, seq)
	if err != nil {
		writeError(w, http.StatusNotFound, "no such file (files last until the server restarts)")
		return
	}
	sendFile(w, it.File, data)
}

func sendFile(w http.ResponseWriter, name string, data []byte) {
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" || path.Ext(name) == ".jsonl" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(data) // the client went away: nothing to do
}
