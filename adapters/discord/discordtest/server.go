// Package discordtest is a fake Discord for tests: REST under /api/v9/ and
// a gateway WebSocket on 127.0.0.1, speaking enough of the real protocol
// for discordgo (and so the discord adapter) to run against it unchanged.
//
// The fake models what users see: messages per channel (authored by the
// bot, a webhook persona or a person), threads, ephemeral answers and
// modals per user. It sends real rate-limit headers, can answer 429, and
// can ask the client to reconnect (op 7) to exercise resuming. It models
// guilds, roles, members and channel permission overwrites (guilds.go):
// interactions carry the member's permissions where they were sent, and
// the bot's own calls fail with 403 Missing Access (50001) or Missing
// Permissions (50013) where it lacks a permission; and threads that
// archive (threads.go), refusing edits and posts with 50083 until
// unarchived. Harness drives it as the bottest conformance suite expects.
package discordtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// IDs of the fake's fixed objects.
const (
	BotID     = "100" // the bot user
	AppID     = "900" // its application
	GuildID   = "800" // the one guild
	ChannelID = "500" // #general, where tables start
	BotName   = "roundtable"
)

// DefaultToken is the bot token the fake accepts unless told otherwise.
const DefaultToken = "Bot test-token"

// Options configure a Server.
type Options struct {
	// Token is the token the bot must present (default DefaultToken).
	Token string
	// Limit is how many requests a route takes per Window before
	// X-RateLimit-Remaining reaches 0 (default 1000 per second).
	Limit  int
	Window time.Duration
	// ForgetNonces makes the fake ignore enforce_nonce, as Discord does
	// once a nonce is a few minutes old (after a long outage or restart).
	ForgetNonces bool
	// MaxGuildsPerShard is how many guilds one gateway session may carry
	// before identifying closes with 4011 (default 2,500, Discord's).
	MaxGuildsPerShard int
	// MaxConcurrency is /gateway/bot's max_concurrency: the buckets
	// (shard % max_concurrency) that may identify at once (default 1).
	MaxConcurrency int
	// IdentifyWindow is how often one bucket may identify (Discord's is
	// 5 s); zero does not limit identifies.
	IdentifyWindow time.Duration
}

// Stats count what the fake saw.
type Stats struct {
	Requests    int // REST requests
	TooMany     int // answered 429
	Exhausted   int // answered with X-RateLimit-Remaining: 0
	Identifies  int // gateway IDENTIFY (op 2)
	Resumes     int // gateway RESUME (op 6) of a live session
	Replayed    int // dispatches sent again on a resume
	Dispatches  int // gateway dispatches sent (op 0)
	WebhooksNew int // webhooks created
	Deferred    int // interactions answered with a deferral (type 5)

	ShardingRequired  int // identifies closed with 4011
	IdentifiesTooSoon int // identifies refused: their bucket identified within IdentifyWindow
}

// Server is a fake Discord. Create it with New; it is safe for concurrent
// use and closes when the test ends.
type Server struct {
	opts Options
	srv  *httptest.Server

	mu           sync.Mutex
	next         int64
	stats        Stats
	force429     int
	buckets      map[string]*bucket
	channels     map[string]*channel
	guilds       map[string]*guild
	messages     map[string][]*message // by channel
	webhooks     map[string]*webhook
	interactions map[string]*interaction // by ID and by token
	private      map[string][]bottest.Private
	files        map[string][]File
	modals       map[string]*modal
	commands     []commandDef
	sessions     map[int]*session // by shard
	shardCount   int              // of the sessions' identifies
	identified   map[int]time.Time
	identifies   []Identify
	updates      chan struct{}

	bottest.HTTPOutage // the bot's message writes fail (outage.go)
}

// channel is a text channel or a thread.
type channel struct {
	ID, Name, Parent string
	Guild            string // "" is the default guild, GuildID
	Type             int    // 0 text, 11 public thread
	Overwrites       []Overwrite
	Archived         bool // threads: archived (auto, after inactivity, or by ArchiveThread)
	threads          []string
}

// guildID is the ID of the channel's guild.
func (c *channel) guildID() string {
	if c.Guild == "" {
		return GuildID
	}
	return c.Guild
}

// message is a posted message with every control it ever showed (a user
// may still click a control an edit removed from their screen).
type message struct {
	ID, Channel     string
	AuthorID        string
	Author          string // "bot", a webhook's persona name or a person's name
	Webhook         string
	Text            string
	Rows            []component
	seen            map[string]component
	files           []File
	system          bool // a thread-created notice
	botAuthor       bool // posted by another bot
	createdAt, edit time.Time
	nonce           string
}

type webhook struct{ ID, Token, Channel, Name string }

// interaction is one interaction the fake sent, and how it was answered.
type interaction struct {
	ID, Token, Channel string
	User               bottest.User
	acked, deferred    bool // deferred: an ephemeral "thinking" answer
	followups          int
	answered           chan struct{} // closed once the user saw an answer
	done               bool
}

// markAnswered records that the user saw an answer; the caller holds mu.
func (it *interaction) markAnswered() {
	if !it.done {
		it.done = true
		close(it.answered)
	}
}

// modal is a form opened for a user.
type modal struct {
	body    messageBody
	channel string
}

// File is a file attached to an answer.
type File struct {
	Name string
	Data []byte
}

// New starts a fake Discord with one guild and one channel.
func New(t testing.TB, opts Options) *Server {
	if opts.Token == "" {
		opts.Token = DefaultToken
	}
	if opts.Limit == 0 {
		opts.Limit = 1000
	}
	if opts.Window == 0 {
		opts.Window = time.Second
	}
	opts.shardDefaults()
	s := &Server{opts: opts, sessions: map[int]*session{}, shardCount: 1, identified: map[int]time.Time{}, next: 1_100_000_000_000_000_000, buckets: map[string]*bucket{},
		channels: map[string]*channel{ChannelID: {ID: ChannelID, Name: "general"}}, messages: map[string][]*message{},
		webhooks: map[string]*webhook{}, interactions: map[string]*interaction{}, private: map[string][]bottest.Private{},
		files: map[string][]File{}, modals: map[string]*modal{}, updates: make(chan struct{}, 1),
		guilds: map[string]*guild{GuildID: newGuild(GuildID, "Test guild")}}
	s.guilds[GuildID].roles = append(s.guilds[GuildID].roles, Role{ID: ModeratorRoleID, Name: "moderators", Permissions: permMember | permManageChannels})
	s.OnFail, s.ServiceUnavail, s.IsPost = s.notify, serviceUnavailable, isPost
	s.srv = httptest.NewServer(s.routes())
	t.Cleanup(s.srv.Close)
	return s
}

// URL is the base URL of the fake, with a trailing slash (the APIURL).
func (s *Server) URL() string { return s.srv.URL + "/" }

// Token is the token the fake accepts.
func (s *Server) Token() string { return s.opts.Token }

// Stats returns the counts so far.
func (s *Server) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// Force429 makes the next n REST requests fail with 429 and
// retry_after 0.05 s, as a shared rate limit would.
func (s *Server) Force429(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.force429 = n
}

// SetLimit changes how many requests a route takes per window.
func (s *Server) SetLimit(limit int, window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.Limit, s.opts.Window, s.buckets = limit, window, map[string]*bucket{}
}

// Updates receives a value whenever something changed in the fake.
func (s *Server) Updates() <-chan struct{} { return s.updates }

func (s *Server) notify() {
	select {
	case s.updates <- struct{}{}:
	default:
	}
}

// newID returns a fresh snowflake; the caller holds mu.
func (s *Server) newID() string {
	s.next++
	return strconv.FormatInt(s.next, 10)
}

// routes maps the REST API and the gateway.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	api := func(pattern string, h http.HandlerFunc, auth bool) {
		mux.Handle(pattern, s.middleware(h, auth))
	}
	api("GET /api/v9/gateway", s.gateway, false)
	api("GET /api/v9/gateway/bot", s.gatewayBot, true)
	api("PUT /api/v9/applications/{app}/commands", s.overwriteCommands, true)
	api("PUT /api/v9/applications/{app}/guilds/{guild}/commands", s.overwriteCommands, true)
	api("GET /api/v9/channels/{ch}", s.getChannel, true)
	api("PATCH /api/v9/channels/{ch}", s.editChannel, true)
	api("GET /api/v9/guilds/{guild}", s.getGuild, true)
	api("GET /api/v9/guilds/{guild}/members/{user}", s.getMember, true)
	api("POST /api/v9/channels/{ch}/messages", s.createMessage, true)
	api("GET /api/v9/channels/{ch}/messages", s.listMessages, true)
	api("POST /api/v9/users/@me/channels", s.createDM, true)
	api("PATCH /api/v9/channels/{ch}/messages/{mid}", s.editMessage, true)
	api("POST /api/v9/channels/{ch}/threads", s.startThread, true)
	api("POST /api/v9/channels/{ch}/messages/{mid}/threads", s.startThread, true)
	api("GET /api/v9/channels/{ch}/webhooks", s.listWebhooks, true)
	api("POST /api/v9/channels/{ch}/webhooks", s.createWebhook, true)
	api("POST /api/v9/webhooks/{id}/{token}", s.executeWebhook, false)
	api("PATCH /api/v9/webhooks/{id}/{token}/messages/{mid}", s.editWebhookMessage, false)
	api("POST /api/v9/interactions/{id}/{token}/callback", s.callback, false)
	mux.HandleFunc("GET /ws", s.serveGateway)
	mux.HandleFunc("GET /ws/", s.serveGateway)
	return mux
}

// apiError answers as Discord does: a status, a numeric code, a message.
func apiError(w http.ResponseWriter, status, code int, msg string) {
	writeJSON(w, status, map[string]any{"code": code, "message": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
