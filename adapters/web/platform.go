package web

import (
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// Name is the platform's name: it prefixes the web's channel bindings and
// participant IDs in the store ("web:<room>", "web:<user>").
const Name = "web"

// Lobby is the channel where tables are started; each table gets a room
// (a thread) under it.
const Lobby = "lobby"

// DefaultAddr is where the web channel listens unless told otherwise: the
// loopback interface only.
const DefaultAddr = "127.0.0.1:8080"

// DefaultMaxBody bounds request bodies unless Config.MaxBody says more.
const DefaultMaxBody = 64 << 10

// Config configures the web channel. The zero value works: it listens on
// DefaultAddr with a random secret (links then last until a restart).
type Config struct {
	// Addr is the listen address; ":0" or port 0 picks a free port.
	Addr string
	// Secret keys the HMACs of join, organiser and host links and of user
	// cookies. The caller persists it so links survive restarts.
	Secret []byte
	// Rules, Agents and Presets fill the create page's choices: rule
	// names, the bot agents people can seat, and preset names.
	Rules   []string
	Agents  []string
	Presets []string
	// Log receives the server's logs; nil discards them.
	Log *slog.Logger
	// MaxBody bounds request bodies in bytes (default DefaultMaxBody).
	MaxBody int64
	// Now tells the time for countdowns; nil is the wall clock. Set it to
	// the bot service's clock when that is not the wall clock.
	Now func() time.Time
	// Task builds a table's task for the dashboard's task measures (U over
	// rounds of an exchange); nil leaves them out.
	Task func(spec roundtable.TaskSpec, seats int) (roundtable.Task, error)
}

// Reader reads the stored tables (store.DB satisfies it). If it also has
// Blobs, rooms survive restarts.
type Reader interface {
	Load(ctx context.Context, table string) ([]roundtable.Event, error)
	Lookup(ctx context.Context, key string) (string, bool, error)
	Tables(ctx context.Context) ([]roundtable.Summary, error)
}

// Platform is the web channel. Create it with New; Run serves it.
type Platform struct {
	cfg    Config
	reader Reader
	keys   keys
	log    *slog.Logger
	boot   string // this process's ID in live-stream cursors
	sig    *signal
	rooms  *rooms
	inbox  *inboxes
	seen   *recent
	pages  *template.Template
	starts *startLog

	mu      sync.Mutex
	handler bot.Handler
	url     string
	ready   chan struct{}
	once    sync.Once
}

var (
	_ bot.Platform = (*Platform)(nil)
	_ bot.Uploader = (*Platform)(nil)
	_ bot.Readier  = (*Platform)(nil)
)

// New returns the web channel over the stored tables r (nil shows rooms
// without their tables' state). It does no I/O.
func New(cfg Config, r Reader) *Platform {
	if cfg.Addr == "" {
		cfg.Addr = DefaultAddr
	}
	if len(cfg.Secret) == 0 {
		cfg.Secret = []byte(randomID(32))
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	blobs, _ := r.(Blobs)
	sig := newSignal()
	p := &Platform{cfg: cfg, reader: r, keys: keys{cfg.Secret}, log: cfg.Log, boot: randomID(4), sig: sig,
		rooms: newRooms(sig, blobs), inbox: newInboxes(sig), seen: newRecent(4096), ready: make(chan struct{}),
		pages: parseTemplates(), starts: newStartLog(1024)}
	p.rooms.byID[Lobby] = &room{ID: Lobby, Title: "Lobby"}
	return p
}

// Name implements bot.Platform.
func (p *Platform) Name() string { return Name }

// Ready is closed once Run listens; URL is valid from then on.
func (p *Platform) Ready() <-chan struct{} { return p.ready }

// URL returns the lobby's address, e.g. "http://127.0.0.1:8080/". It is
// empty until Run listens.
func (p *Platform) URL() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.url
}

// HostURL returns the host's link: a browser that opens it may manage
// every table (bot.User.Manager) and sees the list of rooms. Print it for
// whoever runs the server. It is empty until Run listens.
func (p *Platform) HostURL() string {
	u := p.URL()
	if u == "" {
		return ""
	}
	return u + "host?k=" + p.keys.token(purposeHost, "host")
}

// Run implements bot.Platform: it listens, serves the pages and delivers
// users' acts to h until ctx is done.
func (p *Platform) Run(ctx context.Context, h bot.Handler) error {
	if err := p.rooms.load(ctx); err != nil {
		return fmt.Errorf("web: %w", err)
	}
	ln, err := net.Listen("tcp", p.cfg.Addr)
	if err != nil {
		return fmt.Errorf("web: listen on %s: %w", p.cfg.Addr, err)
	}
	p.mu.Lock()
	p.handler = h
	p.url = baseURL(ln.Addr())
	p.mu.Unlock()
	p.once.Do(func() { close(p.ready) })
	p.log.Info("web channel listening", "url", p.URL())
	srv := &http.Server{Handler: p.routes(), ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		p.setHandler(nil)
		return fmt.Errorf("web: serve: %w", err)
	case <-ctx.Done():
	}
	p.setHandler(nil)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close() // live streams end with ctx; this only forces stragglers
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("web: serve: %w", err)
	}
	return nil
}

func (p *Platform) setHandler(h bot.Handler) {
	p.mu.Lock()
	p.handler = h
	p.mu.Unlock()
}

func (p *Platform) currentHandler() bot.Handler {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.handler
}

// Post implements bot.Platform.
func (p *Platform) Post(ctx context.Context, channel string, m bot.Message) (string, error) {
	pt := post{Kind: authorBot, Author: authorBot, Text: m.Text, Controls: m.Controls, Time: p.cfg.Now(), Key: m.Key}
	if m.As != nil {
		pt.Kind, pt.Author = authorAgent, m.As.Name
	}
	id, err := p.rooms.add(ctx, channel, pt)
	if err != nil {
		return id, fmt.Errorf("web: post: %w", err)
	}
	return id, nil
}

// Edit implements bot.Platform.
func (p *Platform) Edit(ctx context.Context, channel, id string, m bot.Message) error {
	if err := p.rooms.edit(ctx, channel, id, m); err != nil {
		return fmt.Errorf("web: edit: %w", err)
	}
	return nil
}

// Reply implements bot.Platform. Ephemeral replies and forms reach only
// the event's user (every tab of that browser); others are posted.
func (p *Platform) Reply(ctx context.Context, ev *bot.Event, r bot.Reply) error {
	switch {
	case r.Form != nil:
		budget, cands := 0, map[string]bool(nil)
		if st, _, err := p.table(ctx, ev.Channel); err == nil {
			budget, cands = ballotBudget(st)
		}
		p.inbox.add(ev.User.ID, privItem{Channel: ev.Channel, Kind: privForm, Form: viewForm(*r.Form, budget, cands)}, nil)
	case r.Ephemeral:
		p.inbox.add(ev.User.ID, privItem{Channel: ev.Channel, Kind: privText, Text: r.Text}, nil)
	default:
		if _, err := p.Post(ctx, ev.Channel, bot.Message{Text: r.Text}); err != nil {
			return fmt.Errorf("web: reply: %w", err)
		}
	}
	if n, ok := ctx.Value(noteKey{}).(*note); ok {
		n.add(r)
	}
	return nil
}

// Upload implements bot.Uploader: the file is offered for download to the
// event's user only.
func (p *Platform) Upload(_ context.Context, ev *bot.Event, name string, data []byte, text string) error {
	p.inbox.add(ev.User.ID, privItem{Channel: ev.Channel, Kind: privFile, Text: text + ": " + name, File: name}, data)
	return nil
}

// StartThread implements bot.Platform: it opens a room for a table.
func (p *Platform) StartThread(ctx context.Context, channel, title string) (string, error) {
	n, _ := ctx.Value(noteKey{}).(*note)
	creator := ""
	if n != nil {
		creator = n.user
	}
	id, err := p.rooms.create(ctx, channel, title, creator, p.cfg.Now())
	if err != nil {
		return "", fmt.Errorf("web: start thread: %w", err)
	}
	if n != nil {
		n.setRoom(id)
	}
	return id, nil
}

// baseURL is the address to print for a listener: an unspecified IP
// (listening everywhere) is shown as the loopback address.
func baseURL(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String() + "/"
	}
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port)) + "/"
}
