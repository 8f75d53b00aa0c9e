package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// liveEnv is the web channel with the bot service behind it, on a real
// store, driven over plain HTTP.
type liveEnv struct {
	db    *store.DB
	p     *web.Platform
	clock *bottest.Clock
	base  string
}

func newLiveEnv(t *testing.T, cfg web.Config) *liveEnv {
	t.Helper()
	return newLiveEnvWith(t, cfg, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		return bottest.Service(p, db, clock, nil)
	})
}

// newLiveEnvWith runs the web channel behind the service svc makes.
func newLiveEnvWith(t testing.TB, cfg web.Config, svc func(bot.Platform, *store.DB, *bottest.Clock) *bot.Service) *liveEnv {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := bottest.NewClock(time.Now())
	cfg.Addr, cfg.Secret, cfg.Now = "127.0.0.1:0", []byte("live env"), clock.Now
	e := &liveEnv{db: db, clock: clock, p: web.New(cfg, db)}
	serve(t, e.p, db, svc(e.p, db, clock))
	e.base = strings.TrimSuffix(e.p.URL(), "/")
	return e
}

// serve runs svc until the test ends (then closes db) and returns once
// p listens.
func serve(t testing.TB, p *web.Platform, db *store.DB, svc *bot.Service) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("service: %v", err)
		}
		_ = db.Close()
	})
	select {
	case <-p.Ready():
	case err := <-done:
		done <- err // for the clean-up
		t.Fatalf("service: %v", err)
	}
}

// twoPeople opens a table started by Ann (the host) and lets Bob into its
// room (without joining); it returns the room and both browsers.
func (e *liveEnv) twoPeople(t *testing.T) (room string, ann, bob *http.Client) {
	t.Helper()
	ann = e.browser(t, "Ann")
	room, link := e.start(t, ann, nil)
	bob = e.browser(t, "Bob")
	e.send(t, bob, "GET", link, nil)
	return room, ann, bob
}

// browser is one person's cookie jar, named name (unless name is empty).
func (e *liveEnv) browser(t *testing.T, name string) *http.Client {
	t.Helper()
	c := &http.Client{Jar: newJar()}
	if name != "" {
		if code, body := e.send(t, c, "POST", "/name", url.Values{"name": {name}, "next": {"/"}}); code != http.StatusOK {
			t.Fatalf("name %q: %d %s", name, code, body)
		}
	}
	return c
}

// send sends a form (url.Values), JSON (anything else) or nothing, and
// returns the final status and body.
func (e *liveEnv) send(t *testing.T, c *http.Client, method, path string, body any) (int, string) {
	t.Helper()
	var r io.Reader
	ctype := ""
	switch b := body.(type) {
	case nil:
	case url.Values:
		r, ctype = strings.NewReader(b.Encode()), "application/x-www-form-urlencoded"
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r, ctype = strings.NewReader(string(raw)), "application/json"
	}
	if !strings.HasPrefix(path, "http") {
		path = e.base + path
	}
	req, err := http.NewRequest(method, path, r)
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	return roundTrip(t, c, req)
}

// roundTrip sends req with c and returns the final status and body.
func roundTrip(t *testing.T, c *http.Client, req *http.Request) (int, string) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

// start creates a table as the host (who joins it unless join is "no")
// and returns its room and join link. A table the host joined is started
// at once, unless opts says how it starts (start): then it waits.
func (e *liveEnv) start(t *testing.T, host *http.Client, opts url.Values) (string, string) {
	t.Helper()
	if code, body := e.send(t, host, "GET", e.p.HostURL(), nil); code != http.StatusOK {
		t.Fatalf("host link: %d %s", code, body)
	}
	form := url.Values{"nonce": {"n" + randomHex(t)}, "topic": {"Lunch?"}, "rounds": {"1"}, "agents_set": {"1"}}
	for k, v := range opts {
		form[k] = v
	}
	req, _ := http.NewRequest("POST", e.base+"/start", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := host.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	room, ok := strings.CutPrefix(resp.Request.URL.Path, "/r/")
	if resp.StatusCode != http.StatusOK || !ok {
		t.Fatalf("start: %d at %s: %s", resp.StatusCode, resp.Request.URL, raw)
	}
	if !opts.Has("start") && opts.Get("join") != "no" {
		e.begin(t, host, room)
	}
	var rooms []struct{ ID, Join string }
	if _, body := e.send(t, host, "GET", "/api/rooms", nil); json.Unmarshal([]byte(body), &rooms) != nil {
		t.Fatalf("rooms: %s", body)
	}
	for _, r := range rooms {
		if r.ID == room {
			return room, r.Join
		}
	}
	t.Fatalf("room %s is not listed", room)
	return "", ""
}

// begin starts the waiting table of a room as c, its organiser, with the
// room's Start button.
func (e *liveEnv) begin(t *testing.T, c *http.Client, room string) {
	t.Helper()
	id, ok, err := e.db.Lookup(context.Background(), "web:"+room)
	if err != nil || !ok {
		t.Fatalf("no table in room %s: %v", room, err)
	}
	if code, a := e.act(t, c, room, map[string]any{"kind": "action", "action": bot.StartAction(id)}); code != http.StatusOK {
		t.Fatalf("start the table of room %s: %d %+v", room, code, a)
	}
}

// act posts an act in a room and returns the status and the decoded body.
func (e *liveEnv) act(t *testing.T, c *http.Client, room string, body map[string]any) (int, actAnswer) {
	t.Helper()
	if _, ok := body["id"]; !ok { // a retry keeps its act's ID
		body["id"] = randomHex(t)
	}
	code, raw := e.send(t, c, "POST", "/r/"+room+"/act", body)
	var a actAnswer
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		t.Fatalf("act %v: %d %s", body, code, raw)
	}
	return code, a
}

type actAnswer struct {
	OK      bool     `json:"ok"`
	Error   string   `json:"error"`
	Replies []string `json:"replies"`
}

// state returns the table of a room.
func (e *liveEnv) state(t *testing.T, room string) *roundtable.State {
	t.Helper()
	id, ok, err := e.db.Lookup(context.Background(), "web:"+room)
	if err != nil || !ok {
		t.Fatalf("no table in room %s: %v", room, err)
	}
	evs, err := e.db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	s, err := roundtable.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var actions atomic.Int64

// randomHex returns a fresh action ID.
func randomHex(*testing.T) string { return fmt.Sprintf("a%d", actions.Add(1)) }

func urlValues(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Add(kv[i], kv[i+1])
	}
	return v
}
