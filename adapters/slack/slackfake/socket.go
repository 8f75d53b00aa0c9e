package slackfake

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// ErrNotConnected is returned by the acting methods while no app is
// connected over Socket Mode: Slack would not deliver the act either.
var ErrNotConnected = errors.New("slackfake: no Socket Mode connection")

// envelope is a Socket Mode message from Slack to the app.
type envelope struct {
	Type                   string          `json:"type"`
	EnvelopeID             string          `json:"envelope_id"`
	Payload                json.RawMessage `json:"payload"`
	AcceptsResponsePayload bool            `json:"accepts_response_payload"`
	RetryAttempt           int             `json:"retry_attempt"`
	RetryReason            string          `json:"retry_reason,omitempty"`
}

// conn is one WebSocket to the app; writes are serialised.
type conn struct {
	mu sync.Mutex
	ws *websocket.Conn
}

func (c *conn) write(v any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(5 * time.Second))
	return c.ws.WriteJSON(v)
}

// sockets is the Socket Mode side of the server: connection tickets, live
// connections, envelopes not yet acknowledged (sent again on the next
// connection, as Slack retries them) and the acks' payloads.
type sockets struct {
	mu      sync.Mutex
	tickets map[string]bool
	conns   []*conn // newest last: envelopes go to the newest
	pending []envelope
	acks    map[string]json.RawMessage
	opens   int
	seq     int
}

func (k *sockets) init() {
	k.tickets, k.acks = map[string]bool{}, map[string]json.RawMessage{}
}

// open answers apps.connections.open with a one-time WebSocket URL.
func (k *sockets) open(base string) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.opens++
	ticket := fmt.Sprintf("ticket-%d", k.opens)
	k.tickets[ticket] = true
	return "ws" + strings.TrimPrefix(base, "http") + "/link/?ticket=" + ticket
}

// serveSocket runs one Socket Mode connection: hello, the envelopes the
// app has not acknowledged, then pings, while reading acks.
func (s *Server) serveSocket(w http.ResponseWriter, r *http.Request) {
	ticket := r.URL.Query().Get("ticket")
	s.sock.mu.Lock()
	ok := s.sock.tickets[ticket]
	delete(s.sock.tickets, ticket)
	s.sock.mu.Unlock()
	if !ok {
		http.Error(w, "invalid ticket", http.StatusUnauthorized)
		return
	}
	// slack-go sends Origin: https://api.slack.com; the default upgrader
	// would refuse it.
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &conn{ws: ws}
	hello := map[string]any{"type": "hello", "num_connections": 1,
		"connection_info": map[string]any{"app_id": AppID}, "debug_info": map[string]any{"host": "slackfake"}}
	if err := c.write(hello); err != nil {
		_ = ws.Close()
		return
	}
	redo := s.sock.attach(c)
	for _, env := range redo {
		_ = c.write(env)
	}
	s.notify()
	done := make(chan struct{})
	go s.ping(c, done)
	s.readAcks(c)
	close(done)
	s.sock.detach(c)
	_ = ws.Close()
}

// attach makes c the connection for new envelopes and returns the
// unacknowledged ones to send again, marked as retries.
func (k *sockets) attach(c *conn) []envelope {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.conns = append(k.conns, c)
	for i := range k.pending {
		k.pending[i].RetryAttempt++
		k.pending[i].RetryReason = "timeout"
	}
	return append([]envelope(nil), k.pending...)
}

func (k *sockets) detach(c *conn) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for i, x := range k.conns {
		if x == c {
			k.conns = append(k.conns[:i], k.conns[i+1:]...)
			return
		}
	}
}

func (s *Server) ping(c *conn, done <-chan struct{}) {
	t := time.NewTicker(s.opt.PingInterval)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			if err := c.ws.WriteControl(websocket.PingMessage, []byte("ping"), time.Now().Add(5*time.Second)); err != nil {
				return
			}
		}
	}
}

// readAcks reads the app's acknowledgements until the connection ends.
func (s *Server) readAcks(c *conn) {
	for {
		var ack struct {
			EnvelopeID string          `json:"envelope_id"`
			Payload    json.RawMessage `json:"payload"`
		}
		if err := c.ws.ReadJSON(&ack); err != nil {
			return
		}
		s.viewAcked(ack.EnvelopeID, ack.Payload) // before acked: Unacked() == 0 then shows the outcome
		s.sock.acked(ack.EnvelopeID, ack.Payload)
		s.notify()
	}
}

func (k *sockets) acked(id string, payload json.RawMessage) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.acks[id] = payload
	for i, env := range k.pending {
		if env.EnvelopeID == id {
			k.pending = append(k.pending[:i], k.pending[i+1:]...)
			return
		}
	}
}

// send delivers an envelope to the newest connection. It fails only when
// no app is connected; an envelope lost in a dying connection is sent
// again on the next one.
func (s *Server) send(typ string, payload any) (string, error) {
	id := s.sock.newID()
	return id, s.sendAs(id, typ, payload)
}

// newID returns a fresh envelope ID, for a caller that must know it
// before the app can acknowledge the envelope.
func (k *sockets) newID() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.seq++
	return fmt.Sprintf("env-%06d", k.seq)
}

// sendAs is send with the envelope ID id, from newID.
func (s *Server) sendAs(id, typ string, payload any) error {
	raw, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("slackfake: encode %s payload: %w", typ, err)
	}
	k := &s.sock
	k.mu.Lock()
	if len(k.conns) == 0 {
		k.mu.Unlock()
		return ErrNotConnected
	}
	env := envelope{Type: typ, EnvelopeID: id, Payload: raw, AcceptsResponsePayload: typ != "events_api"}
	k.pending = append(k.pending, env)
	c := k.conns[len(k.conns)-1]
	k.mu.Unlock()
	_ = c.write(env)
	return nil
}

// Disconnect asks every connected app to reconnect, as Slack does before
// it rotates its servers.
func (s *Server) Disconnect() {
	k := &s.sock
	k.mu.Lock()
	conns := append([]*conn(nil), k.conns...)
	k.mu.Unlock()
	for _, c := range conns {
		_ = c.write(map[string]any{"type": "disconnect", "reason": "refresh_requested",
			"debug_info": map[string]any{"host": "slackfake"}})
	}
}

// Opens returns how many times the app called apps.connections.open.
func (s *Server) Opens() int {
	s.sock.mu.Lock()
	defer s.sock.mu.Unlock()
	return s.sock.opens
}

// Unacked returns how many envelopes the app has not acknowledged yet.
func (s *Server) Unacked() int {
	s.sock.mu.Lock()
	defer s.sock.mu.Unlock()
	return len(s.sock.pending)
}

// Connected reports how many Socket Mode connections are open.
func (s *Server) Connected() int {
	s.sock.mu.Lock()
	defer s.sock.mu.Unlock()
	return len(s.sock.conns)
}

// Ack returns the payload the app acknowledged an envelope with, and
// whether it acknowledged it.
func (s *Server) Ack(envelopeID string) (json.RawMessage, bool) {
	s.sock.mu.Lock()
	defer s.sock.mu.Unlock()
	p, ok := s.sock.acks[envelopeID]
	return p, ok
}

func (k *sockets) closeAll() {
	k.mu.Lock()
	conns := append([]*conn(nil), k.conns...)
	k.mu.Unlock()
	for _, c := range conns {
		_ = c.ws.Close()
	}
}

// DropSockets closes every Socket Mode connection abruptly, as a network
// failure does: the app is expected to open a new one.
func (s *Server) DropSockets() { s.sock.closeAll() }

// DropEvents implements bottest.Dropper.
func (h *Harness) DropEvents() error {
	h.Fake.DropSockets()
	return nil
}
