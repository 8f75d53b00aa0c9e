package discordtest

import (
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// intentMessageContent is the privileged intent without which Discord
// blanks the text of other people's messages.
const intentMessageContent = 1 << 15

// session is a gateway session: it outlives a connection, and a client
// that resumes it is sent the dispatches it missed.
type session struct {
	id      string
	seq     int64
	log     []frame
	conn    *gwConn // nil while the client is away
	content bool    // the message content intent was asked for
}

// frame is a gateway payload.
type frame struct {
	Op int             `json:"op"`
	S  *int64          `json:"s"`
	T  *string         `json:"t"`
	D  json.RawMessage `json:"d"`
}

// gwConn is one WebSocket connection; writes are serialised.
type gwConn struct {
	mu sync.Mutex
	c  *websocket.Conn
}

func (g *gwConn) send(v any) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	_ = g.c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	return g.c.WriteJSON(v)
}

// serveGateway speaks the gateway: HELLO first, then IDENTIFY → READY,
// RESUME → missed dispatches and RESUMED, heartbeats → ACKs.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	var up websocket.Upgrader
	c, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	gc := &gwConn{c: c}
	defer c.Close()
	if gc.send(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 41250}}) != nil {
		return
	}
	for {
		_, data, err := c.ReadMessage()
		if err != nil {
			s.disconnected(gc, err)
			return
		}
		var p struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if json.Unmarshal(data, &p) != nil {
			continue
		}
		switch p.Op {
		case 1:
			_ = gc.send(map[string]any{"op": 11})
		case 2:
			s.identify(gc, p.D)
		case 6:
			s.resume(gc, p.D)
		}
	}
}

// disconnected detaches a gone connection; a normal close (1000, 1001)
// ends its session, as on Discord.
func (s *Server) disconnected(gc *gwConn, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notify()
	if s.sess == nil || s.sess.conn != gc {
		return
	}
	s.sess.conn = nil
	var ce *websocket.CloseError
	if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
		s.sess = nil
	}
}

func (s *Server) identify(gc *gwConn, d json.RawMessage) {
	var id struct {
		Token   string `json:"token"`
		Intents int    `json:"intents"`
	}
	_ = json.Unmarshal(d, &id)
	if id.Token != s.opts.Token {
		_ = gc.c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(4004, "Authentication failed."), time.Now().Add(time.Second))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notify()
	s.stats.Identifies++
	s.sess = &session{id: "sess-" + s.newID(), conn: gc, content: id.Intents&intentMessageContent != 0}
	var unavailable []any
	for id := range s.guilds {
		unavailable = append(unavailable, map[string]any{"id": id, "unavailable": true})
	}
	s.dispatchLocked("READY", map[string]any{"v": 9, "session_id": s.sess.id, "resume_gateway_url": "ws" + s.srv.URL[len("http"):] + "/ws",
		"user": botUser(), "application": map[string]any{"id": AppID, "flags": 0}, "guilds": unavailable})
	for _, g := range s.guilds {
		s.dispatchLocked("GUILD_CREATE", s.guildJSON(g))
	}
}

func (s *Server) guildJSON(g *guild) map[string]any {
	chans, threads := []map[string]any{}, []map[string]any{}
	for _, c := range s.channels {
		switch {
		case c.guildID() != g.ID:
		case c.Parent == "":
			chans = append(chans, channelJSON(c))
		default:
			threads = append(threads, channelJSON(c))
		}
	}
	return map[string]any{"id": g.ID, "name": g.Name, "owner_id": g.Owner, "channels": chans, "threads": threads,
		"roles": []any{}, "members": []any{}, "unavailable": false}
}

func (s *Server) resume(gc *gwConn, d json.RawMessage) {
	var res struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	_ = json.Unmarshal(d, &res)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notify()
	if s.sess == nil || s.sess.id != res.SessionID || res.Token != s.opts.Token {
		_ = gc.send(map[string]any{"op": 9, "d": false})
		return
	}
	s.stats.Resumes++
	s.sess.conn = gc
	for _, f := range s.sess.log {
		if *f.S > res.Seq {
			s.stats.Replayed++
			_ = gc.send(f)
		}
	}
	s.dispatchLocked("RESUMED", map[string]any{})
}

// dispatchLocked sends an event to the session, or keeps it for a resume
// while the client is away. Without a session (no bot connected) events
// are lost, as on Discord. The caller holds mu.
func (s *Server) dispatchLocked(typ string, d any) {
	if s.sess == nil {
		return
	}
	s.sess.seq++
	seq := s.sess.seq
	f := frame{Op: 0, S: &seq, T: &typ, D: mustJSON(d)}
	s.sess.log = append(s.sess.log, f)
	s.stats.Dispatches++
	if s.sess.conn != nil {
		_ = s.sess.conn.send(f) // a lost write is replayed when the client resumes
	}
}

// Reconnect asks the connected client to reconnect (op 7), as Discord does
// before moving a session; the client is expected to resume. Dispatches
// until then are kept for the resume.
func (s *Server) Reconnect() error {
	conn, err := s.detach()
	if err != nil {
		return err
	}
	return conn.send(map[string]any{"op": 7, "d": nil})
}

// detach takes the client's connection off its session, which keeps the
// dispatches until the client resumes.
func (s *Server) detach() (*gwConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil || s.sess.conn == nil {
		return nil, errors.New("discordtest: no client connected")
	}
	conn := s.sess.conn
	s.sess.conn = nil
	return conn, nil
}

// EndSession forgets the gateway session (the bot process is gone):
// events are refused until a client identifies again.
func (s *Server) EndSession() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != nil && s.sess.conn != nil {
		_ = s.sess.conn.c.Close()
	}
	s.sess = nil
}

// Connected reports whether a client holds a live session.
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sess != nil && s.sess.conn != nil
}

// Registered reports whether /roundtable is registered.
func (s *Server) Registered() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.commands {
		if c.Name == commandName {
			return true
		}
	}
	return false
}

// DropGateway closes the client's gateway connection abruptly, as a
// network failure does: the client is expected to reconnect and resume.
// Dispatches until then are kept for the resume.
func (s *Server) DropGateway() error {
	conn, err := s.detach()
	if err != nil {
		return err
	}
	return conn.c.Close()
}

// DropEvents implements bottest.Dropper.
func (h *Harness) DropEvents() error { return h.DropGateway() }
