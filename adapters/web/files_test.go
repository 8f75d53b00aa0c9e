package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// wireFile is a file the bot offered a browser: a download link.
type wireFile struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

var (
	_ bottest.StoreSharer  = (*harness)(nil)
	_ bottest.FileReceiver = (*harness)(nil)
	_ bottest.TableViewer  = (*harness)(nil)
)

// ShareStore implements bottest.StoreSharer: the platform (not started
// yet) and its restarts read tables and keep rooms in the bot's store, as
// `roundtable serve` does.
func (h *harness) ShareStore(db *store.DB) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.db = db
	h.cur = web.New(web.Config{Addr: "127.0.0.1:0", Secret: h.secret}, db)
}

// TableViews implements bottest.TableViewer: as u, over HTTP, the room's
// log download, its feed (what the live stream sends a page that catches
// up from the start) and its dashboard.
func (h *harness) TableViews(ctx context.Context, u bottest.User, room string, query map[string]string) (map[string][]byte, error) {
	c := h.user(u)
	if err := c.enter(ctx, room); err != nil {
		return nil, err
	}
	q := url.Values{}
	for k, v := range query {
		q.Set(k, v)
	}
	out := map[string][]byte{}
	for name, path := range map[string]string{"log download": "/log?" + q.Encode(), "view:feed": "/feed", "view:dashboard": "/dashboard"} {
		data, err := c.download(ctx, "/r/"+room+path)
		if err != nil {
			return nil, err
		}
		out[name] = data
	}
	return out, nil
}

// ReceivedFiles implements bottest.FileReceiver: it downloads, over HTTP
// with u's cookies, every file the live stream offered u.
func (h *harness) ReceivedFiles(u bottest.User) []bottest.File {
	c := h.user(u)
	c.mu.Lock()
	links := append([]wireFile(nil), c.files...)
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
	defer cancel()
	var out []bottest.File
	for _, f := range links {
		data, err := c.download(ctx, f.URL)
		if err != nil {
			return out // shown as not received yet; the suite waits
		}
		out = append(out, bottest.File{Name: f.Name, Data: data})
	}
	return out
}

// download GETs path with the client's cookies and returns the body.
func (c *client) download(ctx context.Context, path string) ([]byte, error) {
	base, err := c.h.base(ctx)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s: %s", path, resp.Status, data)
	}
	return data, err
}
