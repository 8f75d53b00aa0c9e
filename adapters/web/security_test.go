package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
)

// server is a running Platform whose handler records events and answers
// every one with an ephemeral "got <kind>".
type server struct {
	p    *Platform
	base string
	room string
	mu   sync.Mutex
	evs  []*bot.Event
}

func newServer(t *testing.T) *server {
	t.Helper()
	return newServerWith(t, Config{})
}

// newServerWith is newServer with cfg (its address and secret set).
func newServerWith(t *testing.T, cfg Config) *server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Addr, cfg.Secret = "127.0.0.1:0", []byte("k")
	s := &server{p: New(cfg, nil)}
	done := make(chan error, 1)
	go func() {
		done <- s.p.Run(ctx, func(ctx context.Context, ev *bot.Event) {
			s.mu.Lock()
			s.evs = append(s.evs, ev)
			s.mu.Unlock()
			_ = s.p.Reply(ctx, ev, bot.Reply{Text: "got " + string(ev.Kind) + " from " + ev.User.Name, Ephemeral: true})
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	<-s.p.Ready()
	s.base = strings.TrimSuffix(s.p.URL(), "/")
	room, err := s.p.StartThread(ctx, Lobby, "Test table")
	if err != nil {
		t.Fatal(err)
	}
	s.room = room
	return s
}

func (s *server) events() []*bot.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*bot.Event(nil), s.evs...)
}

// browser is a cookie jar that has a name and the room's join link.
func (s *server) browser(t *testing.T, name string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	s.must(t, c, "POST", "/name", "application/x-www-form-urlencoded", url.Values{"name": {name}}.Encode(), nil, http.StatusOK)
	s.must(t, c, "GET", "/r/"+s.room+"?k="+s.p.keys.token(purposeJoin, s.room), "", "", nil, http.StatusOK)
	return c
}

// must sends a request and checks its final status; it returns the body.
func (s *server) must(t *testing.T, c *http.Client, method, path, ctype, body string, hdr http.Header, want int) string {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header[k] = v
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, resp.StatusCode, want, b)
	}
	return string(b)
}

func (s *server) act(t *testing.T, c *http.Client, body string, hdr http.Header, want int) string {
	t.Helper()
	return s.must(t, c, "POST", "/r/"+s.room+"/act", "application/json", body, hdr, want)
}

func TestBodiesAreBounded(t *testing.T) {
	s := newServer(t)
	c := s.browser(t, "Ann")
	huge := `{"kind":"message","text":"` + strings.Repeat("x", 1<<20) + `"}`
	if got := s.act(t, c, huge, nil, http.StatusRequestEntityTooLarge); !strings.Contains(got, "too large") {
		t.Errorf("1 MB message: %s", got)
	}
	long := `{"kind":"message","text":"` + strings.Repeat("x", 9000) + `"}`
	if got := s.act(t, c, long, nil, http.StatusBadRequest); !strings.Contains(got, "limit is 8000") {
		t.Errorf("9000-byte message: %s", got)
	}
	if n := len(s.events()); n != 0 {
		t.Errorf("refused messages reached the bot: %d events", n)
	}
}

func TestOtherOriginsAreRefused(t *testing.T) {
	s := newServer(t)
	c := s.browser(t, "Ann")
	msg := `{"kind":"message","text":"hi"}`
	s.act(t, c, msg, http.Header{"Origin": {"http://evil.example"}}, http.StatusForbidden)
	s.act(t, c, msg, http.Header{"Sec-Fetch-Site": {"cross-site"}}, http.StatusForbidden)
	s.act(t, c, msg, http.Header{"Origin": {"null"}}, http.StatusForbidden)
	s.must(t, c, "GET", "/r/"+s.room+"/live", "", "", http.Header{"Origin": {"http://evil.example"}}, http.StatusForbidden)
	same := s.base
	s.act(t, c, msg, http.Header{"Origin": {same}, "Sec-Fetch-Site": {"same-origin"}}, http.StatusOK)
}

func TestRebindingHostIsRefused(t *testing.T) {
	s := newServer(t)
	req, _ := http.NewRequest("GET", s.base+"/", nil)
	req.Host = "evil.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("Host evil.example: status %d", resp.StatusCode)
	}
}

func TestJoinLinkIsRequired(t *testing.T) {
	s := newServer(t)
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	s.must(t, c, "POST", "/name", "application/x-www-form-urlencoded", "name=Eve", nil, http.StatusOK)
	s.must(t, c, "GET", "/r/"+s.room+"?k=wrong", "", "", nil, http.StatusForbidden)
	s.must(t, c, "GET", "/r/"+s.room, "", "", nil, http.StatusForbidden)
	s.act(t, c, `{"kind":"message","text":"hi"}`, nil, http.StatusForbidden)
	s.must(t, c, "GET", "/r/"+s.room+"/live", "", "", nil, http.StatusForbidden)
	s.must(t, c, "GET", "/r/"+s.room+"/log", "", "", nil, http.StatusForbidden)
	s.must(t, c, "GET", "/api/rooms", "", "", nil, http.StatusForbidden)
}

func TestPagesCarrySafetyHeadersAndCookies(t *testing.T) {
	s := newServer(t)
	resp, err := http.Get(s.base + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q", csp)
	}
	for _, c := range resp.Cookies() {
		if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode {
			t.Errorf("cookie %s: HttpOnly %v SameSite %v", c.Name, c.HttpOnly, c.SameSite)
		}
	}
}

func TestHostileNamesAreEscaped(t *testing.T) {
	s := newServer(t)
	c := s.browser(t, `<script>alert("x")</script>`)
	page := s.must(t, c, "GET", "/", "", "", nil, http.StatusOK)
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;") {
		t.Errorf("lobby shows the name unescaped")
	}
	s.act(t, c, `{"kind":"message","text":"<b>bold</b>"}`, nil, http.StatusOK)
	feed := s.must(t, c, "GET", "/r/"+s.room+"/feed", "", "", nil, http.StatusOK)
	if strings.Contains(feed, "<b>") || strings.Contains(feed, "<script>") {
		t.Errorf("feed carries raw markup: %s", feed)
	}
}

func TestEphemeralRepliesReachOnlyTheirUser(t *testing.T) {
	s := newServer(t)
	ann, bob := s.browser(t, "Ann"), s.browser(t, "Bob")
	s.act(t, ann, `{"id":"a1","kind":"command","command":"status"}`, nil, http.StatusOK)
	s.act(t, ann, `{"id":"a1","kind":"command","command":"status"}`, nil, http.StatusOK) // a retry
	var a, b update
	_ = json.Unmarshal([]byte(s.must(t, ann, "GET", "/r/"+s.room+"/feed", "", "", nil, http.StatusOK)), &a)
	_ = json.Unmarshal([]byte(s.must(t, bob, "GET", "/r/"+s.room+"/feed", "", "", nil, http.StatusOK)), &b)
	if len(a.Private) != 1 || a.Private[0].Text != "got command from Ann" {
		t.Errorf("Ann sees %+v, want one reply (the retry handled once)", a.Private)
	}
	if len(b.Private) != 0 {
		t.Errorf("Bob sees Ann's reply: %+v", b.Private)
	}
}

func TestStopTakesTheOrganiserLink(t *testing.T) {
	s := newServer(t)
	c := s.browser(t, "Ann")
	if got := s.act(t, c, `{"kind":"command","command":"stop"}`, nil, http.StatusForbidden); !strings.Contains(got, "only whoever started this table") {
		t.Errorf("refused stop answers %s", got)
	}
	if len(s.events()) != 0 {
		t.Fatalf("a stop without the organiser link reached the bot")
	}
	var u update
	_ = json.Unmarshal([]byte(s.must(t, c, "GET", "/r/"+s.room+"/feed", "", "", nil, http.StatusOK)), &u)
	if len(u.Private) != 1 || !strings.Contains(u.Private[0].Text, "only whoever started this table") {
		t.Errorf("reply %+v", u.Private)
	}
	u2, _ := url.Parse(s.base)
	c.Jar.SetCookies(u2, []*http.Cookie{{Name: cookieOrganiser + s.room, Value: s.p.keys.token(purposeOrganiser, s.room), Path: "/"}})
	s.act(t, c, `{"kind":"command","command":"stop"}`, nil, http.StatusOK)
	if evs := s.events(); len(evs) != 1 || !evs[0].User.Manager {
		t.Errorf("the organiser's stop: events %+v", evs)
	}
}
