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
	shard   int // of the bot's shards (0 when unsharded)
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
	for shard, sess := range s.sessions {
		if sess.conn != gc {
			continue
		}
		sess.conn = nil
		var ce *websocket.CloseError
		if errors.As(err, &ce) && (ce.Code == websocket.CloseNormalClosure || ce.Code == websocket.CloseGoingAway) {
			delete(s.sessions, shard)
		}
	}
}

// identify starts a session for the shard the client names (none: the
// only one), closing the connection as Discord does when the shard is
// invalid (4010) or carries too many guilds (4011), and answering
// Invalid Session when the shard's bucket identified too recently.
func (s *Server) identify(gc *gwConn, d json.RawMessage) {
	var id struct {
		Token   string  `json:"token"`
		Intents int     `json:"intents"`
		Shard   *[2]int `json:"shard"`
	}
	_ = json.Unmarshal(d, &id)
	if id.Token != s.opts.Token {
		gc.closeWith(4004, "Authentication failed.")
		return
	}
	shard, count := 0, 1
	if id.Shard != nil {
		shard, count = id.Shard[0], id.Shard[1]
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notify()
	guilds, err := s.admitLocked(gc, shard, count)
	if err != nil {
		return
	}
	s.stats.Identifies++
	sess := &session{id: "sess-" + s.newID(), shard: shard, conn: gc, content: id.Intents&intentMessageContent != 0}
	s.sessions[shard] = sess
	var unavailable []any
	for _, g := range guilds {
		unavailable = append(unavailable, map[string]any{"id": g.ID, "unavailable": true})
	}
	s.sendLocked(sess, "READY", map[string]any{"v": 9, "session_id": sess.id, "resume_gateway_url": "ws" + s.srv.URL[len("http"):] + "/ws",
		"user": botUser(), "application": map[string]any{"id": AppID, "flags": 0}, "guilds": unavailable, "shard": []int{shard, count}})
	for _, g := range guilds {
		s.sendLocked(sess, "GUILD_CREATE", s.guildJSON(g))
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
	var sess *session
	for _, ss := range s.sessions {
		if ss.id == res.SessionID {
			sess = ss
		}
	}
	if sess == nil || res.Token != s.opts.Token {
		_ = gc.send(map[string]any{"op": 9, "d": false})
		return
	}
	s.stats.Resumes++
	sess.conn = gc
	for _, f := range sess.log {
		if *f.S > res.Seq {
			s.stats.Replayed++
			_ = gc.send(f)
		}
	}
	s.sendLocked(sess, "RESUMED", map[string]any{})
}

// dispatchLocked sends an event to the session of the shard that carries
// it (the shard of its guild_id; shard 0 without one, as Discord sends
// direct messages), or keeps it for a resume while the client is away.
// Without a session (no bot connected) events are lost, as on Discord.
// The caller holds mu.
func (s *Server) dispatchLocked(typ string, d any) {
	raw := mustJSON(d)
	var in struct {
		GuildID string `json:"guild_id"`
	}
	_ = json.Unmarshal(raw, &in)
	s.sendLocked(s.sessions[s.shardOf(in.GuildID)], typ, json.RawMessage(raw))
}

// sendLocked sends a dispatch to sess (nil: nobody); the caller holds mu.
func (s *Server) sendLocked(sess *session, typ string, d any) {
	if sess == nil {
		return
	}
	sess.seq++
	seq := sess.seq
	f := frame{Op: 0, S: &seq, T: &typ, D: mustJSON(d)}
	sess.log = append(sess.log, f)
	s.stats.Dispatches++
	if sess.conn != nil {
		_ = sess.conn.send(f) // a lost write is replayed when the client resumes
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
	sess := s.sessions[0]
	if sess == nil || sess.conn == nil {
		return nil, errors.New("discordtest: no client connected")
	}
	conn := sess.conn
	sess.conn = nil
	return conn, nil
}

// EndSession forgets the gateway session (the bot process is gone):
// events are refused until a client identifies again.
func (s *Server) EndSession() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, sess := range s.sessions {
		if sess.conn != nil {
			_ = sess.conn.c.Close()
		}
	}
	clear(s.sessions)
}

// Connected reports whether a client holds a live session (of shard 0,
// when the bot is sharded).
func (s *Server) Connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[0]
	return sess != nil && sess.conn != nil
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
