package web

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// Name is the platform's name (bot.Platform): the bot service knows the
// web's rooms and people by it.
const Name = "web"

// Lobby is the channel where tables are started; each table gets a room
// (a thread) under it.
const Lobby = "lobby"

// DefaultAddr is where the web channel listens unless told otherwise: the
// loopback interface only.
const DefaultAddr = "127.0.0.1:8080"

// DefaultMaxBody bounds request bodies unless Config.MaxBody says more.
const DefaultMaxBody = 64 << 10

// The HTTP server's default timeouts: a slow or silent client is not held
// indefinitely.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = 30 * time.Second
	DefaultWriteTimeout      = 30 * time.Second
	DefaultIdleTimeout       = 2 * time.Minute
)

// Config configures the web channel. The zero value works: it listens on
// DefaultAddr with a random secret (links then last until a restart).
type Config struct {
	// Addr is the listen address; ":0" or port 0 picks a free port.
	Addr string
	// OpenLobby lets anyone who opens the lobby create tables; otherwise
	// only a browser that opened the host link does.
	OpenLobby bool
	// Secret keys the HMACs of join, organiser and host links and of user
	// cookies. The caller persists it so links survive restarts.
	Secret []byte
	// Rules, Agents and Presets fill the create page's choices: rule
	// names, the bot agents people can seat, and preset names.
	Rules   []string
	Agents  []string
	Presets []string
	// Defaults are the server's table defaults, which the create form
	// starts from; PresetTables are the presets' settings, which the form
	// takes when a preset is chosen (the organiser may then change them).
	Defaults     TableSettings
	PresetTables map[string]TableSettings
	// VotesIfAsked are the bot agents that vote only when the organiser
	// asks (the Facilitator): the form offers the choice beside them.
	VotesIfAsked []string
	// Log receives the server's logs; nil discards them.
	Log *slog.Logger
	// MaxBody bounds request bodies in bytes (default DefaultMaxBody).
	MaxBody int64
	// Now tells the time for countdowns; nil is the wall clock. Set it to
	// the bot service's clock when that is not the wall clock.
	Now func() time.Time
	// ReadTimeout bounds reading a request, headers and body
	// (default DefaultReadTimeout); its headers get at most
	// DefaultReadHeaderTimeout of it. WriteTimeout bounds writing a
	// response (default DefaultWriteTimeout); a live stream is not cut by
	// either, but each of its writes gets WriteTimeout. IdleTimeout closes
	// a kept-alive connection that has sent nothing (default
	// DefaultIdleTimeout).
	ReadTimeout  time.Duration
	WriteTimeout time.Duration
	IdleTimeout  time.Duration
	// Retention is how long a room is kept after its table ended
	// (default DefaultRetention); then its posts are deleted.
	Retention time.Duration
	// Streams bound the live streams that need no link (the lobby's).
	Streams StreamLimits
	// Shared says several processes serve the rooms of one store (a
	// cluster, see bot.Owners): a room is loaded when this process serves
	// its table, a request for a room another process serves is sent on
	// to it, and the host's list of rooms is read from the store
	// (cluster.go).
	Shared bool
	// PublicURL is the address people open, e.g. "https://class.example.org/"
	// behind a TLS reverse proxy: join, host and cohort links are built
	// from it, its host is accepted as this server's (the Host and Origin
	// checks), and cookies are sent over TLS only when it is https. ""
	// builds links from the listening address. See ParsePublicURL; New
	// ignores an address it refuses (check it before).
	PublicURL string
}

// Platform is the web channel. Create it with New; Run serves it.
type Platform struct {
	cfg    Config
	tables Tables // set by the bot service (ReadTables); nil shows rooms without tables
	keys   keys
	log    *slog.Logger
	boot   string // this process's ID in live-stream cursors
	sig    *signal
	rooms  *rooms
	inbox  *inboxes
	seen   *capped[struct{}]   // start forms sent
	acts   *capped[*loggedAct] // acts' answers, for retries
	pages  *template.Template
	starts *capped[string] // the room each start form opened, for retries
	joins  *joinLocks
	anon   *streamGate // the lobby's live streams
	public *url.URL    // Config.PublicURL, nil when unset
	blobs  Blobs       // where rooms and the study are kept; nil: memory

	mu      sync.Mutex
	handler bot.Handler
	url     string
	study   *liveStudy  // the study open live (OpenStudy), nil when none
	studies bot.Studies // the studies the host may open from /study; nil: none
	ready   chan struct{}
	once    sync.Once
}

var (
	_ bot.Platform    = (*Platform)(nil)
	_ bot.Uploader    = (*Platform)(nil)
	_ bot.Readier     = (*Platform)(nil)
	_ bot.TableReader = (*Platform)(nil)
)

// New returns the web channel. Its rooms and their posts are kept in
// blobs, so that they survive restarts (nil keeps them in memory); its
// tables it reads through the bot service it is given to (ReadTables). It
// does no I/O.
func New(cfg Config, blobs Blobs) *Platform {
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
	cfg.ReadTimeout = cmp.Or(cfg.ReadTimeout, DefaultReadTimeout)
	cfg.WriteTimeout = cmp.Or(cfg.WriteTimeout, DefaultWriteTimeout)
	cfg.IdleTimeout = cmp.Or(cfg.IdleTimeout, DefaultIdleTimeout)
	cfg.Retention = cmp.Or(cfg.Retention, DefaultRetention)
	cfg.Streams = cfg.Streams.withDefaults()
	sig := newSignal()
	p := &Platform{cfg: cfg, keys: keys{cfg.Secret}, log: cfg.Log, boot: randomID(4), sig: sig,
		rooms: newRooms(sig, blobs), inbox: newInboxes(cfg.Now), seen: newCapped[struct{}](4096), acts: newCapped[*loggedAct](4096), ready: make(chan struct{}),
		pages: parseTemplates(), starts: newCapped[string](1024), joins: newJoinLocks(),
		anon: newStreamGate(cfg.Streams), blobs: blobs}
	if cfg.PublicURL != "" {
		p.public, _ = ParsePublicURL(cfg.PublicURL)
	}
	p.rooms.put(newRoom(header{ID: Lobby, Title: "Lobby"}))
	p.rooms.logTo(cfg.Log)
	return p
}

// Name implements bot.Platform.
func (p *Platform) Name() string { return Name }

// ReadTables implements bot.TableReader: the web channel reads its tables
// through t, never from the store. The service calls it before Run.
func (p *Platform) ReadTables(t *bot.Tables) { p.tables = t }

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
// whoever runs the server. It is built from the public URL when there is
// one, else it is empty until Run listens.
func (p *Platform) HostURL() string {
	u := p.publicBase()
	if u == "" {
		return ""
	}
	return u + "host?k=" + p.keys.token(purposeHost, "host")
}

// Run implements bot.Platform: it listens, serves the pages and delivers
// users' acts to h until ctx is done.
func (p *Platform) Run(ctx context.Context, h bot.Handler) error {
	if err := p.loadRooms(ctx); roundtable.IsDamage(err) {
		p.log.Error("web: rooms under a damaged page of the database are left out", "err", err)
	} else if err != nil {
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
	srv := &http.Server{Handler: p.routes(), ReadHeaderTimeout: min(DefaultReadHeaderTimeout, p.cfg.ReadTimeout),
		ReadTimeout: p.cfg.ReadTimeout, WriteTimeout: p.cfg.WriteTimeout, IdleTimeout: p.cfg.IdleTimeout,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	sweepCtx, stopSweep := context.WithCancel(ctx)
	swept := make(chan struct{})
	go func() { defer close(swept); p.sweeper(sweepCtx) }()
	defer func() { stopSweep(); <-swept }()
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
	if err := p.rooms.sync(sctx); err != nil { // what was shown is saved before the store closes
		p.log.Error("save room records at shutdown", "err", err)
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
	} else {
		pt.Text = roomWords.Replace(pt.Text) // an agent's own words stay as written
	}
	id, err := p.rooms.add(ctx, channel, pt)
	if err != nil {
		return id, fmt.Errorf("web: post: %w", err)
	}
	return id, nil
}

// Sync implements bot.Syncer: it returns once every post and edit made
// before it is saved in the store. Posts are shown at once and saved in
// batches; the bot records a delivery only after Sync.
func (p *Platform) Sync(ctx context.Context) error {
	if err := p.rooms.sync(ctx); err != nil {
		return fmt.Errorf("web: save rooms: %w", err)
	}
	return nil
}

// Edit implements bot.Platform.
func (p *Platform) Edit(ctx context.Context, channel, id string, m bot.Message) error {
	if m.As == nil {
		m.Text = roomWords.Replace(m.Text)
	}
	if err := p.rooms.edit(ctx, channel, id, m); err != nil {
		return fmt.Errorf("web: edit: %w", err)
	}
	return nil
}

// Reply implements bot.Platform. Ephemeral replies and forms reach only
// the event's user (every tab of that browser); others are posted.
func (p *Platform) Reply(ctx context.Context, ev *bot.Event, r bot.Reply) error {
	r.Text = roomWords.Replace(r.Text)
	switch {
	case r.Form != nil:
		budget, cands, list, about := 0, map[string]bool(nil), []candView(nil), ""
		var scale *roundtable.Scale
		if st, err := p.state(ctx, ev.Channel, roundtable.Viewer{Participant: participantID(ev.User.ID)}); err == nil {
			budget, cands = ballotBudget(st)
			if r.Form.IsBallot() {
				list = candidateList(st, participantID(ev.User.ID))
			}
			if isSurvey(r.Form.ID) {
				scale = st.Scale()
			}
			about = critiqued(st)
		}
		fv := viewForm(*r.Form, budget, cands)
		fv.Candidates, fv.About = list, about
		answerScale(fv, scale)
		p.inbox.add(ev.User.ID, privItem{Channel: ev.Channel, Kind: privForm, Form: fv}, nil)
	case r.Ephemeral:
		p.inbox.add(ev.User.ID, privItem{Channel: ev.Channel, Kind: privText, Text: r.Text, Waiting: p.waits(ctx, ev.Channel)}, nil)
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
	// The bot names threads "roundtable: TITLE" for chat clients; a room's
	// page already says roundtable, so its heading is the title alone.
	title = strings.TrimPrefix(title, "roundtable: ")
	id, err := p.rooms.create(ctx, channel, title, creator, p.cfg.Now())
	if err != nil {
		return "", fmt.Errorf("web: start thread: %w", err)
	}
	if n != nil {
		n.setRoom(id)
	}
	return id, nil
}

// baseURL is the address to print for a listener. An unspecified IP
// (listening everywhere, LAN mode) is shown as an address others can
// reach: this machine's first private (else global) unicast address, and
// the loopback address only when it has none.
func baseURL(a net.Addr) string {
	tcp, ok := a.(*net.TCPAddr)
	if !ok {
		return "http://" + a.String() + "/"
	}
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		host = reachableIP(interfaceIPs(), tcp.IP.To4() == nil)
	}
	return "http://" + net.JoinHostPort(host, fmt.Sprint(tcp.Port)) + "/"
}

// interfaceIPs lists the addresses of this machine's interfaces.
func interfaceIPs() []net.IP {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []net.IP
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			out = append(out, n.IP)
		}
	}
	return out
}

// reachableIP picks, from ips, the address to give to others: private
// before global, IPv4 before IPv6 unless v6 says otherwise; loopback when
// none is usable.
func reachableIP(ips []net.IP, v6 bool) string {
	best, rank := "127.0.0.1", 0
	for _, ip := range ips {
		if ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || ip.IsMulticast() {
			continue
		}
		r := 1
		if ip.IsPrivate() {
			r += 2
		}
		if (ip.To4() != nil) != v6 {
			r++
		}
		if r > rank {
			best, rank = ip.String(), r
		}
	}
	return best
}
