package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/slack-go/slack"

	"github.com/roundtable-ai/roundtable/bot"
)

// Transport modes of Config.Mode.
const (
	ModeSocket = "socket"
	ModeHTTP   = "http"
)

// Defaults of Config.
const (
	DefaultAPIURL       = "https://slack.com/api/"
	DefaultHTTPAddr     = "127.0.0.1:3000"
	DefaultPostInterval = time.Second
	// DefaultHistoryInterval is Slack's limit on conversations.history and
	// conversations.replies for apps not approved for its Marketplace: one
	// call a minute (Tier 1), since May 2025.
	DefaultHistoryInterval = time.Minute
)

// Config configures the Slack adapter. The caller reads the secrets from the
// environment; they are never logged (Config logs and prints redacted).
type Config struct {
	BotToken      string // xoxb-...: every Web API call
	AppToken      string // xapp-...: Socket Mode only
	SigningSecret string // HTTP mode only: verifies Slack's requests
	// Mode is ModeSocket (the default) or ModeHTTP.
	Mode string
	// APIURL is the Web API base with a trailing slash (default
	// DefaultAPIURL). It redirects Socket Mode too: the WebSocket URL comes
	// from apps.connections.open.
	APIURL string
	// HTTPAddr is where Run listens in HTTP mode (default DefaultHTTPAddr).
	HTTPAddr string
	// HTTPClient makes the Web API calls (default http.DefaultClient).
	HTTPClient *http.Client
	// PostInterval is the least time between two posts in one channel
	// (default DefaultPostInterval, Slack's published limit).
	PostInterval time.Duration
	// HistoryInterval is the least time between two calls that read
	// history (conversations.history, conversations.replies), for the
	// whole workspace (default DefaultHistoryInterval: Slack's limit, since
	// 2025, for apps not approved for its Marketplace; such an app may
	// set about a second). The adapter reads history only to find posts
	// whose outcome is unknown (dedupe.go) and a channel's table thread
	// after a restart.
	HistoryInterval time.Duration
	// AckDeadline is how long a submitted modal waits for the bot's answer
	// before it is acknowledged plainly, closing it (default
	// DefaultAckDeadline; Slack allows 3 s). Tests inject a shorter one.
	AckDeadline time.Duration
	// Wait waits out pacing and Retry-After delays; nil uses a timer. Tests
	// inject a shorter or recording wait.
	Wait func(ctx context.Context, d time.Duration) error
	// Now tells the time of history reads' pacing and of a search's
	// windows (default time.Now); tests inject a fake clock that Wait
	// moves.
	Now func() time.Time
}

// String implements fmt.Stringer without the secrets.
func (c Config) String() string {
	return fmt.Sprintf("slack.Config{Mode:%q APIURL:%q HTTPAddr:%q BotToken:%s AppToken:%s SigningSecret:%s}",
		c.mode(), c.APIURL, c.HTTPAddr, redact(c.BotToken), redact(c.AppToken), redact(c.SigningSecret))
}

// LogValue implements slog.LogValuer without the secrets.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(slog.String("mode", c.mode()), slog.String("api_url", c.APIURL),
		slog.String("http_addr", c.HTTPAddr), slog.String("bot_token", redact(c.BotToken)),
		slog.String("app_token", redact(c.AppToken)), slog.String("signing_secret", redact(c.SigningSecret)))
}

func redact(secret string) string {
	if secret == "" {
		return "unset"
	}
	return "[redacted]"
}

func (c Config) mode() string {
	if c.Mode == "" {
		return ModeSocket
	}
	return c.Mode
}

func (c Config) withDefaults() Config {
	c.Mode = c.mode()
	if c.APIURL == "" {
		c.APIURL = DefaultAPIURL
	}
	if !strings.HasSuffix(c.APIURL, "/") {
		c.APIURL += "/"
	}
	if c.HTTPAddr == "" {
		c.HTTPAddr = DefaultHTTPAddr
	}
	if c.PostInterval == 0 {
		c.PostInterval = DefaultPostInterval
	}
	if c.HistoryInterval == 0 {
		c.HistoryInterval = DefaultHistoryInterval
	}
	if c.AckDeadline == 0 {
		c.AckDeadline = DefaultAckDeadline
	}
	if c.Wait == nil {
		c.Wait = sleep
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// webAPI lists the Web API calls the adapter makes; *slack.Client has them.
type webAPI interface {
	AuthTestContext(ctx context.Context) (*slack.AuthTestResponse, error)
	PostMessageContext(ctx context.Context, channel string, opts ...slack.MsgOption) (string, string, error)
	UpdateMessageContext(ctx context.Context, channel, ts string, opts ...slack.MsgOption) (string, string, string, error)
	DeleteMessageContext(ctx context.Context, channel, ts string) (string, string, error)
	PostEphemeralContext(ctx context.Context, channel, user string, opts ...slack.MsgOption) (string, error)
	OpenViewContext(ctx context.Context, triggerID string, view slack.ModalViewRequest) (*slack.ViewResponse, error)
	GetUserInfoContext(ctx context.Context, user string, opts ...slack.GetUserInfoOption) (*slack.User, error)
	GetConversationHistoryContext(ctx context.Context, p *slack.GetConversationHistoryParameters) (*slack.GetConversationHistoryResponse, error)
	GetConversationRepliesContext(ctx context.Context, p *slack.GetConversationRepliesParameters) ([]slack.Message, bool, string, error)
	OpenConversationContext(ctx context.Context, p *slack.OpenConversationParameters) (*slack.Channel, bool, bool, error)
	GetUploadURLExternalContext(ctx context.Context, p slack.GetUploadURLExternalParameters) (*slack.GetUploadURLExternalResponse, error)
	UploadToURL(ctx context.Context, p slack.UploadToURLParameters) error
	CompleteUploadExternalContext(ctx context.Context, p slack.CompleteUploadExternalParameters) (*slack.CompleteUploadExternalResponse, error)
}

// Platform is the Slack bot.Platform. Create it with New; it is safe for
// concurrent use.
type Platform struct {
	cfg      Config
	log      *slog.Logger
	client   *slack.Client
	api      webAPI
	pace     *pacer
	users    *userCache
	threads  *threadIndex
	parts    *partsIndex
	outcomes *outcomes
	names    channelNames
	busy     busy
	depth    int // per-user event queue bound; zero is bot.DefaultLaneDepth

	mu   sync.Mutex
	self identity // who the bot is, from auth.test in Run

	ready bot.Readiness // set once auth.test answers: the bot posts from then on
}

// identity is the bot's own user and bot IDs.
type identity struct{ UserID, BotID string }

var (
	_ bot.Platform = (*Platform)(nil)
	_ bot.Readier  = (*Platform)(nil)
)

// New returns the Slack platform for cfg. It does no I/O; Run connects.
func New(cfg Config, log *slog.Logger) *Platform {
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opts := []slack.Option{slack.OptionAPIURL(cfg.APIURL), slack.OptionAppLevelToken(cfg.AppToken)}
	if cfg.HTTPClient != nil {
		opts = append(opts, slack.OptionHTTPClient(cfg.HTTPClient))
	}
	client := slack.New(cfg.BotToken, opts...)
	p := &Platform{cfg: cfg, log: log.With("platform", "slack"), client: client, api: client,
		pace: newPacer(cfg.PostInterval, readGate{interval: cfg.HistoryInterval, now: cfg.Now}, cfg.Wait), outcomes: newOutcomes()}
	p.users = newUserCache(client, p.pace)
	p.threads = newThreadIndex(client, p.pace, p.botID)
	p.parts = newPartsIndex()
	return p
}

// Name implements bot.Platform.
func (p *Platform) Name() string { return "slack" }

// Run implements bot.Platform: it checks the bot token, then serves Socket
// Mode or the HTTP Events API until ctx is done or the tokens are refused.
func (p *Platform) Run(ctx context.Context, h bot.Handler) error {
	err := p.serve(ctx, h)
	if ctx.Err() != nil {
		return nil // stopped, not failed
	}
	return err
}

func (p *Platform) serve(ctx context.Context, h bot.Handler) error {
	if err := p.identify(ctx); err != nil {
		return err
	}
	q := &bot.Lanes{Depth: p.depth}
	defer q.Wait()
	switch p.cfg.Mode {
	case ModeSocket:
		return p.runSocket(ctx, h, q)
	case ModeHTTP:
		return p.runHTTP(ctx, h, q)
	}
	return fmt.Errorf("slack: unknown mode %q (want %q or %q)", p.cfg.Mode, ModeSocket, ModeHTTP)
}

// identify learns the bot's IDs with auth.test, retrying transient failures.
func (p *Platform) identify(ctx context.Context) error {
	backoff := time.Second
	for {
		var res *slack.AuthTestResponse
		err := p.pace.retry(ctx, func(ctx context.Context) (err error) {
			res, err = p.api.AuthTestContext(ctx)
			return err
		})
		if err == nil {
			p.mu.Lock()
			p.self = identity{UserID: res.UserID, BotID: res.BotID}
			p.mu.Unlock()
			p.ready.Set()
			return nil
		}
		if fatal(err) || ctx.Err() != nil {
			return fmt.Errorf("slack auth.test: %w", err)
		}
		p.log.Warn("slack unreachable; retrying", "err", err, "in", backoff)
		if err := p.cfg.Wait(ctx, backoff); err != nil {
			return fmt.Errorf("slack auth.test: %w", err)
		}
		backoff = min(2*backoff, 30*time.Second)
	}
}

// fatal reports whether err is a refusal that retrying cannot fix.
func fatal(err error) bool {
	var se slack.SlackErrorResponse
	if errors.As(err, &se) {
		switch se.Err {
		case "invalid_auth", "not_authed", "account_inactive", "token_revoked", "missing_scope":
			return true
		}
	}
	return false
}

func (p *Platform) identity() identity {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.self
}

func (p *Platform) botID() string { return p.identity().BotID }
