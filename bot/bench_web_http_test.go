package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkLiveTablesWebHTTP is BenchmarkLiveTablesWeb with the people
// acting as browsers do: each person is a cookie jar that names itself
// (POST /name), the first starts the table with the lobby's form (POST
// /start), the others open the room's join link, and every act is a POST
// to the room's act endpoint, answered once the bot has handled it. The
// figures are those of BenchmarkLiveTables, with the server's HTTP side
// (sessions, cookies, parsing, the refusal replies) on the same two cores.
//
// Run: go test ./bot -run '^$' -bench LiveTablesWebHTTP -benchtime 1x
// (ROUNDTABLE_BENCH_TABLES, _ROUNDS and _PHASE scale it as for BenchmarkLiveTables).
func BenchmarkLiveTablesWebHTTP(b *testing.B) { benchLive(b, webBrowsers) }

// browserSide is the web platform with its people as HTTP clients.
type browserSide struct {
	*web.Platform
	transport *http.Transport
	ids       atomic.Int64

	mu       sync.Mutex
	browsers map[string]*browser // by user ID
	joinKeys map[string]string   // room → join key, learnt by its starter
}

// browser is one person's browser.
type browser struct {
	client *http.Client
	named  bool
}

func webBrowsers(db *store.DB) (peopleSide, func()) {
	w := &browserSide{Platform: web.New(web.Config{Addr: "127.0.0.1:0", Secret: []byte("bench secret"), OpenLobby: true}, db),
		transport: &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024},
		browsers:  map[string]*browser{}, joinKeys: map[string]string{}}
	return w, func() { <-w.Ready() }
}

// browserOf returns u's browser, named on first use. Redirects are not
// followed: a person reads only what the benchmark needs.
func (w *browserSide) browserOf(ctx context.Context, u bottest.User) (*browser, error) {
	w.mu.Lock()
	br := w.browsers[u.ID]
	if br == nil {
		jar, _ := cookiejar.New(nil)
		br = &browser{client: &http.Client{Transport: w.transport, Jar: jar,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
		w.browsers[u.ID] = br
	}
	named := br.named
	w.mu.Unlock()
	if !named {
		if _, err := w.send(ctx, br, http.MethodPost, "/name", "application/x-www-form-urlencoded",
			url.Values{"name": {u.Name}, "next": {"/"}}.Encode()); err != nil {
			return nil, err
		}
		w.mu.Lock()
		br.named = true
		w.mu.Unlock()
	}
	return br, nil
}

// send makes one request and returns the response, its body read.
func (w *browserSide) send(ctx context.Context, br *browser, method, path, ctype, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimSuffix(w.URL(), "/")+path, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := br.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return nil, err
	}
	if resp.StatusCode/100 == 5 || resp.StatusCode == http.StatusForbidden {
		return nil, fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	return resp, nil
}

// Command sends the lobby's start form, or an act of kind command in the
// room; joining first opens the room's join link.
func (w *browserSide) Command(ctx context.Context, u bottest.User, room, name string, opts map[string]string) error {
	br, err := w.browserOf(ctx, u)
	if err != nil {
		return err
	}
	if name == "start" {
		return w.start(ctx, br, u, opts)
	}
	if name == "join" {
		w.mu.Lock()
		key := w.joinKeys[room]
		w.mu.Unlock()
		if _, err := w.send(ctx, br, http.MethodGet, "/r/"+room+"?k="+url.QueryEscape(key), "", ""); err != nil {
			return err
		}
	}
	return w.act(ctx, br, room, map[string]any{"kind": "command", "command": name, "options": opts})
}

// Say posts a message act.
func (w *browserSide) Say(ctx context.Context, u bottest.User, room, text string) error {
	br, err := w.browserOf(ctx, u)
	if err != nil {
		return err
	}
	return w.act(ctx, br, room, map[string]any{"kind": "message", "text": text})
}

func (w *browserSide) act(ctx context.Context, br *browser, room string, body map[string]any) error {
	body["id"] = fmt.Sprintf("a%d", w.ids.Add(1))
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	_, err = w.send(ctx, br, http.MethodPost, "/r/"+room+"/act", "application/json", string(raw))
	return err
}

// start sends the create form; the room it opened is where the answer
// redirects, and its join key is in the starter's cookies.
func (w *browserSide) start(ctx context.Context, br *browser, u bottest.User, opts map[string]string) error {
	form := url.Values{"nonce": {fmt.Sprintf("n%d", w.ids.Add(1))}, "name": {u.Name}}
	for k, v := range opts {
		form.Set(k, v)
	}
	resp, err := w.send(ctx, br, http.MethodPost, "/start", "application/x-www-form-urlencoded", form.Encode())
	if err != nil {
		return err
	}
	room, ok := strings.CutPrefix(resp.Header.Get("Location"), "/r/")
	if !ok {
		return fmt.Errorf("start: answered %s without a room", resp.Status)
	}
	base, _ := url.Parse(w.URL())
	for _, c := range br.client.Jar.Cookies(base) {
		if c.Name == "rt_join_"+room {
			w.mu.Lock()
			w.joinKeys[room] = c.Value
			w.mu.Unlock()
			return nil
		}
	}
	return fmt.Errorf("start: no join key for room %s", room)
}
