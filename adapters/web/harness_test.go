package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// harness drives the web channel as its users do: each user is a browser
// (a cookie jar) that posts acts over HTTP and reads the live stream of
// every room it entered. A watcher holding the host link reads the posts.
type harness struct {
	secret  []byte
	db      *store.DB // the web channel's own rooms: kept across Restart
	ctx     context.Context
	wg      sync.WaitGroup
	updates chan struct{}

	mu      sync.Mutex
	cur     *web.Platform
	clients map[string]*client
	watcher *client
}

var _ bottest.Harness = (*harness)(nil)

func newHarness(t *testing.T) *harness {
	db, err := store.Open(filepath.Join(t.TempDir(), "web.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h := &harness{secret: []byte("harness secret"), db: db, ctx: ctx, updates: make(chan struct{}, 1), clients: map[string]*client{}}
	h.cur = web.New(web.Config{Addr: "127.0.0.1:0", Secret: h.secret}, db)
	h.watcher = h.newClient(bottest.User{ID: "watcher", Name: "Watcher", Manager: true})
	t.Cleanup(func() {
		cancel()
		h.wg.Wait()
		_ = db.Close()
	})
	return h
}

func (h *harness) Platform() bot.Platform {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cur
}

// Restart replaces the platform by a new one on the same address and
// secret, as a restarted process would be.
func (h *harness) Restart() {
	h.mu.Lock()
	defer h.mu.Unlock()
	u, _ := url.Parse(h.cur.URL())
	h.cur = web.New(web.Config{Addr: u.Host, Secret: h.secret}, h.db)
}

func (h *harness) Channel() string { return web.Lobby }

// base waits for the current platform to listen and returns its URL.
func (h *harness) base(ctx context.Context) (string, error) {
	h.mu.Lock()
	p := h.cur
	h.mu.Unlock()
	select {
	case <-p.Ready():
		return strings.TrimSuffix(p.URL(), "/"), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (h *harness) hostURL(ctx context.Context) (string, error) {
	if _, err := h.base(ctx); err != nil {
		return "", err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cur.HostURL(), nil
}

func (h *harness) notify() {
	select {
	case h.updates <- struct{}{}:
	default:
	}
}

func (h *harness) Updates() <-chan struct{} { return h.updates }

func (h *harness) user(u bottest.User) *client {
	h.mu.Lock()
	c, ok := h.clients[u.ID]
	h.mu.Unlock()
	if ok {
		return c
	}
	c = h.newClient(u)
	h.mu.Lock()
	defer h.mu.Unlock()
	if old, ok := h.clients[u.ID]; ok {
		return old
	}
	h.clients[u.ID] = c
	return c
}

func (h *harness) Command(ctx context.Context, u bottest.User, channel, name string, opts map[string]string) error {
	c := h.user(u)
	if channel == web.Lobby {
		if name != "start" {
			return fmt.Errorf("harness: only start is a lobby command, not %q", name)
		}
		if err := c.setup(ctx); err != nil {
			return err
		}
		c.watch("/live", web.Lobby)
		return c.start(ctx, opts)
	}
	return c.act(ctx, channel, map[string]any{"kind": "command", "command": name, "options": opts})
}

func (h *harness) Say(ctx context.Context, u bottest.User, channel, text string) error {
	return h.user(u).act(ctx, channel, map[string]any{"kind": "message", "text": text})
}

func (h *harness) Click(ctx context.Context, u bottest.User, channel, _, controlID string, values ...string) error {
	return h.user(u).act(ctx, channel, map[string]any{"kind": "action", "action": controlID, "values": values})
}

func (h *harness) Submit(ctx context.Context, u bottest.User, fields map[string]string) error {
	c := h.user(u)
	c.mu.Lock()
	form := c.form
	c.form = openForm{}
	c.mu.Unlock()
	if form.ID == "" {
		return fmt.Errorf("harness: no form is open for %s", u.Name)
	}
	return c.act(ctx, form.Room, map[string]any{"kind": "submit", "action": form.ID, "fields": fields})
}

func (h *harness) Posts(channel string) []bottest.Post {
	ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
	defer cancel()
	if err := h.watcher.enter(ctx, channel); err != nil {
		return nil
	}
	return h.watcher.postList(channel)
}

func (h *harness) Private(u bottest.User) []bottest.Private {
	c := h.user(u)
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]bottest.Private(nil), c.private...)
}

func (h *harness) Threads(channel string) []string {
	ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
	defer cancel()
	rooms, err := h.watcher.roomList(ctx)
	if err != nil {
		return nil
	}
	var out []string
	for _, r := range rooms {
		if r.Parent == channel {
			out = append(out, r.ID)
		}
	}
	return out
}

// roomEntry is an entry of /api/rooms.
type roomEntry struct {
	ID, Parent, Join string
}

func (c *client) roomList(ctx context.Context) ([]roomEntry, error) {
	if err := c.setup(ctx); err != nil {
		return nil, err
	}
	var rooms []roomEntry
	if err := c.getJSON(ctx, "/api/rooms", &rooms); err != nil {
		return nil, err
	}
	return rooms, nil
}

// readStream reads Server-Sent Events until the stream ends, calling f
// with each event's ID and data.
func readStream(r io.Reader, f func(id string, data []byte)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	var id string
	var data []byte
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if data != nil {
				f(id, data)
			}
			data = nil
		case strings.HasPrefix(line, "id: "):
			id = strings.TrimPrefix(line, "id: ")
		case strings.HasPrefix(line, "data: "):
			data = append(data, strings.TrimPrefix(line, "data: ")...)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return errors.New("stream ended")
}

// newJar returns an empty cookie jar.
func newJar() http.CookieJar {
	jar, _ := cookiejar.New(nil) // cannot fail without options
	return jar
}

// decode reads a JSON body into v.
func decode(r io.Reader, v any) error {
	if err := json.NewDecoder(r).Decode(v); err != nil {
		return fmt.Errorf("decode: %w", err)
	}
	return nil
}
