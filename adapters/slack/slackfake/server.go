package slackfake

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// IDs of the fake workspace.
const (
	BotToken   = "xoxb-fake-bot-token"
	AppToken   = "xapp-fake-app-token"
	BotUserID  = "UBOTFAKE1"
	BotID      = "BBOTFAKE1"
	AppID      = "A0FAKEAPP"
	TeamID     = "T0FAKETEAM"
	GeneralID  = "C0GENERAL"
	appCommand = "/roundtable"
)

// Options configure a Server.
type Options struct {
	// PingInterval is how often the Socket Mode WebSocket is pinged
	// (default 2s; slack-go reconnects after 30s without a ping).
	PingInterval time.Duration
	// QuietBots stops the fake from echoing the app's own posts as message
	// events (Slack sends them; the adapter must ignore them).
	QuietBots bool
	// NoHistory is an app installed without channels:history: reading a
	// channel's history or a thread's replies answers missing_scope.
	NoHistory bool
	// NotMarketplace holds the app to the limits Slack sets, since May
	// 2025, for apps not approved for its Marketplace: conversations.history
	// and conversations.replies take one call each per HistoryWindow (more
	// answer 429 with Retry-After) and return at most 15 messages a page
	// (the limit parameter's maximum and default). Otherwise they take any
	// number of calls, and pages of up to 999 messages (100 by default).
	NotMarketplace bool
	// HistoryWindow is that window (default a minute, Slack's).
	HistoryWindow time.Duration
	// Clock tells the time of messages' timestamps and of the history
	// window (default time.Now); tests share a fake clock with the
	// adapter, whose waits move it.
	Clock func() time.Time
}

// Server is a fake Slack: the Web API methods the adapter calls and a
// Socket Mode WebSocket, over real HTTP on 127.0.0.1. It is safe for
// concurrent use.
type Server struct {
	opt  Options
	http *httptest.Server

	mu       sync.Mutex
	seq      int                   // timestamps and IDs
	channels map[string]string     // ID → name
	states   map[string]chanState  // channels the app is not in or archived
	hooks    map[string]*hook      // response_url by trigger_id
	messages map[string][]*Message // by channel, top level and replies in order
	users    map[string]User
	private  map[string][]private // by user, in order
	triggers map[string]string    // unused trigger_id → user
	limits   map[string][]int     // method → Retry-After seconds of coming 429s
	calls    map[string]int       // method → calls
	tooMany  map[string]int       // method → calls answered 429
	reads    map[string]time.Time // history method → when its window opened (NotMarketplace)
	lastTS   time.Time            // the newest timestamp given
	submits  map[string]*View     // envelope ID → the view submitted, until acknowledged
	dms      map[string]string    // DM channel ID → its member
	uploads  map[string]*pending  // file ID → a file not shared yet
	sock     sockets
	updates  chan struct{}

	bottest.HTTPOutage // posts and edits fail (outage.go)
}

// New starts a fake Slack with one channel, GeneralID ("general").
func New(opt Options) *Server {
	if opt.PingInterval == 0 {
		opt.PingInterval = 2 * time.Second
	}
	if opt.HistoryWindow == 0 {
		opt.HistoryWindow = time.Minute
	}
	if opt.Clock == nil {
		opt.Clock = time.Now
	}
	s := &Server{opt: opt, channels: map[string]string{GeneralID: "general"}, messages: map[string][]*Message{},
		users: map[string]User{BotUserID: {ID: BotUserID, Name: "roundtable", Bot: true}}, private: map[string][]private{},
		triggers: map[string]string{}, limits: map[string][]int{}, calls: map[string]int{}, tooMany: map[string]int{}, reads: map[string]time.Time{},
		submits: map[string]*View{}, dms: map[string]string{}, uploads: map[string]*pending{},
		states: map[string]chanState{}, hooks: map[string]*hook{},
		updates: make(chan struct{}, 1)}
	s.sock.init()
	s.OnFail, s.IsPost = s.notify, isPost
	mux := http.NewServeMux()
	mux.HandleFunc("/api/", s.serveAPI)
	mux.HandleFunc("/link/", s.serveSocket)
	mux.HandleFunc("/upload/", s.serveUpload)
	mux.HandleFunc("POST /hooks/", s.serveHook)
	s.http = httptest.NewServer(mux)
	return s
}

// Close stops the server and closes its WebSockets.
func (s *Server) Close() {
	s.sock.closeAll()
	s.http.Close()
}

// APIURL is the Web API base for slack.OptionAPIURL.
func (s *Server) APIURL() string { return s.http.URL + "/api/" }

// Updates receives a value whenever something changed.
func (s *Server) Updates() <-chan struct{} { return s.updates }

func (s *Server) notify() {
	select {
	case s.updates <- struct{}{}:
	default:
	}
}

// AddUser adds or replaces a workspace member.
func (s *Server) AddUser(u User) {
	s.mu.Lock()
	s.users[u.ID] = u
	s.mu.Unlock()
}

// AddChannel adds a channel the bot is a member of.
func (s *Server) AddChannel(id, name string) {
	s.mu.Lock()
	s.channels[id] = name
	s.mu.Unlock()
}

// RateLimit makes the next n calls of method answer 429 with Retry-After
// retryAfter seconds. UploadMethod names the POSTs of files' bytes.
func (s *Server) RateLimit(method string, n, retryAfter int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range n {
		s.limits[method] = append(s.limits[method], retryAfter)
	}
}

// Calls returns how often method was called (429s included).
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[method]
}

// TooMany returns how many calls of method were answered 429.
func (s *Server) TooMany(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tooMany[method]
}

// nextTS returns a fresh timestamp in Slack's "seconds.micros" form: the
// time now, as Slack's are, a microsecond after the last one at least.
// The caller holds mu.
func (s *Server) nextTS() string {
	now := s.opt.Clock().Truncate(time.Microsecond)
	if !now.After(s.lastTS) {
		now = s.lastTS.Add(time.Microsecond)
	}
	s.lastTS = now
	return formatTS(now)
}

// nextID returns a fresh ID with prefix. The caller holds mu.
func (s *Server) nextID(prefix string) string {
	s.seq++
	return fmt.Sprintf("%s%06d", prefix, s.seq)
}

// request is a Web API call's parameters, form-encoded or JSON.
type request struct {
	method string
	form   url.Values
	json   map[string]json.RawMessage
	token  string
}

func (r request) get(key string) string {
	if v := r.form.Get(key); v != "" {
		return v
	}
	var s string
	_ = json.Unmarshal(r.json[key], &s)
	return s
}

// serveAPI answers /api/<method> like Slack: HTTP 200 with {"ok":...}, or
// 429 with Retry-After.
func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request) {
	method := strings.TrimPrefix(r.URL.Path, "/api/")
	if s.failCall(w, r, method) {
		return
	}
	s.answer(w, r, method)
}

// answer runs an API call and writes its answer.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, method string) {
	if wait, limited := s.limited(method); limited {
		w.Header().Set("Retry-After", strconv.Itoa(wait))
		w.WriteHeader(http.StatusTooManyRequests)
		writeJSON(w, map[string]any{"ok": false, "error": "ratelimited"})
		return
	}
	req, err := parseRequest(method, r)
	if err != nil {
		writeJSON(w, map[string]any{"ok": false, "error": "invalid_form_data"})
		return
	}
	res, err := s.call(req)
	if err != nil {
		writeJSON(w, map[string]any{"ok": false, "error": err.Error()})
		return
	}
	res["ok"] = true
	writeJSON(w, res)
	s.notify()
}

func (s *Server) limited(method string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls[method]++
	if wait, limited := s.readLimited(method); limited {
		s.tooMany[method]++
		return wait, true
	}
	q := s.limits[method]
	if len(q) == 0 {
		return 0, false
	}
	s.limits[method] = q[1:]
	s.tooMany[method]++
	return q[0], true
}

func parseRequest(method string, r *http.Request) (request, error) {
	req := request{method: method, token: strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")}
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil || len(bytes.TrimSpace(body)) == 0 {
			return req, err
		}
		return req, json.Unmarshal(body, &req.json)
	}
	if err := r.ParseForm(); err != nil {
		return req, err
	}
	req.form = r.Form
	if t := r.Form.Get("token"); t != "" {
		req.token = t
	}
	return req, nil
}

// call checks the token and runs the method.
func (s *Server) call(req request) (map[string]any, error) {
	want := BotToken
	if req.method == "apps.connections.open" {
		want = AppToken
	}
	if req.token != want {
		return nil, fmt.Errorf("invalid_auth")
	}
	switch req.method {
	case "auth.test":
		return map[string]any{"url": "https://fake.slack.com/", "team": "Fake", "user": "roundtable",
			"team_id": TeamID, "user_id": BotUserID, "bot_id": BotID}, nil
	case "apps.connections.open":
		return map[string]any{"url": s.sock.open(s.http.URL)}, nil
	case "chat.postMessage":
		return s.postMessage(req)
	case "chat.update":
		return s.update(req)
	case "chat.delete":
		return s.delete(req)
	case "chat.postEphemeral":
		return s.postEphemeral(req)
	case "views.open":
		return s.openView(req)
	case "users.info":
		return s.userInfo(req)
	case "conversations.history":
		return s.history(req)
	case "conversations.replies":
		return s.replies(req)
	case "conversations.open":
		return s.openDM(req)
	case "files.getUploadURLExternal":
		return s.uploadURL(req)
	case "files.completeUploadExternal":
		return s.completeUpload(req)
	}
	return nil, fmt.Errorf("unknown_method")
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_ = json.NewEncoder(w).Encode(v)
}
