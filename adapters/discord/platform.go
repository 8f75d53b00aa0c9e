package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"

	"github.com/roundtable-ai/roundtable/bot"
)

// DefaultAPIURL is where Discord's REST API lives.
const DefaultAPIURL = "https://discord.com/"

// defaultAckAfter is how long a handler may take before an interaction is
// deferred: Discord drops interactions not answered within 3 seconds.
const defaultAckAfter = 2500 * time.Millisecond

// intents are the gateway events the platform needs. Message content is
// privileged: it must be enabled in the developer portal as well.
const intents = discordgo.IntentsGuilds | discordgo.IntentsGuildMessages |
	discordgo.IntentsMessageContent | discordgo.IntentsDirectMessages

// Config configures the Discord platform.
type Config struct {
	// Token is the bot token, "Bot xxx" or bare. The caller reads it from
	// the environment; the platform never logs it.
	Token string
	// APIURL is the base URL of the API (default "https://discord.com/");
	// tests point it at a fake. The gateway is dialled at whatever URL
	// GET /api/v9/gateway returns.
	APIURL string
	// Guilds lists the guilds to register /roundtable in (instant);
	// empty registers it globally (may take a while to show).
	Guilds []string
	// HTTPClient makes the REST calls; nil uses a client with a 20s timeout.
	// It is copied, never modified.
	HTTPClient *http.Client
	// Shards is the range of shards this process runs; the zero value
	// runs the bot unsharded.
	Shards Shards
	// Turn, when set, runs open (a shard's identify) in its bucket's turn
	// across every process of the bot (serve's cluster): one process at a
	// time, and every after the bucket's last identify was answered; nil
	// paces this process's shards only.
	Turn func(ctx context.Context, bucket int, every time.Duration, open func() error) error
	// IdentifyEvery is how often the shards of one bucket identify
	// (DefaultIdentifyEvery when zero).
	IdentifyEvery time.Duration
}

// Platform is Discord as the bot service sees it. Create it with New; it
// is safe for concurrent use.
type Platform struct {
	cfg      Config
	log      *slog.Logger
	s        *discordgo.Session // REST, and the gateway of the first shard
	gw       *gateway           // set by Run
	token    string
	ackAfter time.Duration
	depth    int // per-channel event queue bound; zero is bot.DefaultLaneDepth

	mu       sync.Mutex
	self     string            // the bot's user ID, from READY
	app      string            // the application ID, from READY
	parents  map[string]string // channel ID → parent ID ("" when not a thread)
	archived map[string]bool   // threads the gateway said are archived
	noticed  map[string]bool   // notices posted, by key
	webhooks map[string]*discordgo.Webhook

	hookMu sync.Mutex // serialises webhook creation

	ready bot.Readiness // set when READY arrives: the bot posts from then on
}

var (
	_ bot.Platform = (*Platform)(nil)
	_ bot.Uploader = (*Platform)(nil)
	_ bot.Readier  = (*Platform)(nil)
)

// New returns a platform for cfg. It does no I/O: Run connects.
func New(cfg Config, log *slog.Logger) *Platform {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	token := strings.TrimSpace(cfg.Token)
	if token != "" && !strings.HasPrefix(token, "Bot ") && !strings.HasPrefix(token, "Bearer ") {
		token = "Bot " + token
	}
	p := &Platform{cfg: cfg, log: log.With("platform", "discord"), token: token, ackAfter: defaultAckAfter,
		parents: map[string]string{}, archived: map[string]bool{}, noticed: map[string]bool{}, webhooks: map[string]*discordgo.Webhook{}}
	p.s = p.newSession()
	return p
}

// newSession returns a discordgo session as the platform uses them.
func (p *Platform) newSession() *discordgo.Session {
	s, _ := discordgo.New(p.token) // New never fails
	s.Identify.Intents = intents
	s.SyncEvents = true
	s.ShouldRetryOnRateLimit = true
	s.Client = httpClient(p.cfg)
	return s
}

// Name implements bot.Platform.
func (p *Platform) Name() string { return "discord" }

// httpClient copies the configured client and, when APIURL is not
// Discord's, makes it send Discord's requests there.
func httpClient(cfg Config) *http.Client {
	c := &http.Client{Timeout: 20 * time.Second}
	if cfg.HTTPClient != nil {
		cc := *cfg.HTTPClient
		c = &cc
	}
	target, err := url.Parse(cfg.APIURL)
	if err != nil || target.Host == "" || cfg.APIURL == DefaultAPIURL {
		return c
	}
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = rewrite{target: target, base: base}
	return c
}

// rewrite sends requests meant for Discord's API to target instead.
type rewrite struct {
	target *url.URL
	base   http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (rw rewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	if !isDiscordHost(r.URL.Host) {
		return rw.base.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = rw.target.Scheme, rw.target.Host, rw.target.Host
	if prefix := strings.TrimSuffix(rw.target.Path, "/"); prefix != "" {
		r.URL.Path = prefix + r.URL.Path
	}
	return rw.base.RoundTrip(r)
}

func isDiscordHost(host string) bool {
	return host == "discord.com" || host == "discordapp.com" || strings.HasSuffix(host, ".discord.com")
}

// ids returns the bot's user ID and application ID, once READY arrived.
func (p *Platform) ids() (self, app string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.self, p.app
}

// permanent reports whether a connection error will not go away by
// retrying: a rejected token or a close code Discord says is fatal.
func permanent(err error) bool {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		code := rest.Response.StatusCode
		return code == http.StatusUnauthorized || code == http.StatusForbidden
	}
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Code == 4004 || (ce.Code >= 4010 && ce.Code <= 4014)
	}
	return false
}

// wrap adds context to an error from discordgo.
func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("discord: %s: %w", what, err)
}
