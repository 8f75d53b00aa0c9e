package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
)

// runPlatform runs a platform with cfg (on a free loopback port, over no
// store) until the test ends, and returns it with its base URL.
func runPlatform(t *testing.T, cfg Config) (*Platform, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Addr, cfg.Secret = "127.0.0.1:0", []byte("k")
	p := New(cfg, nil)
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, func(context.Context, *bot.Event) {}) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	<-p.Ready()
	return p, strings.TrimSuffix(p.URL(), "/")
}

// clientFrom is an HTTP client whose connections come from the loopback
// address ip.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// openLobbyStream opens the lobby's stream without a cookie and returns
// its status and, when it is open, its body after the first event.
func openLobbyStream(t *testing.T, ctx context.Context, c *http.Client, base string) (int, *bufio.Reader) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/live", nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil
	}
	body := bufio.NewReader(resp.Body)
	if line, err := body.ReadString('\n'); !strings.HasPrefix(line, "id: ") {
		t.Fatalf("the stream began %q: %v", line, err)
	}
	return resp.StatusCode, body
}

// TestLobbyStreamsAreCappedInAllAndPerAddress opens the lobby's stream,
// which needs no link, from two addresses: the third from one address is
// refused with 429, and once the cap in all is reached, a stream from
// another address with 503; closing one lets another in.
func TestLobbyStreamsAreCappedInAllAndPerAddress(t *testing.T) {
	p, base := runPlatform(t, Config{Streams: StreamLimits{Anonymous: 3, PerAddress: 2, Life: time.Hour}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	one, two := clientFrom("127.0.0.1"), clientFrom("127.0.0.2")
	for i := range 2 {
		if code, _ := openLobbyStream(t, ctx, one, base); code != http.StatusOK {
			t.Fatalf("stream %d from one address: %d", i+1, code)
		}
	}
	if code, _ := openLobbyStream(t, ctx, one, base); code != http.StatusTooManyRequests {
		t.Errorf("a third stream from one address: %d, want 429", code)
	}
	first, cancelFirst := context.WithCancel(ctx)
	if code, _ := openLobbyStream(t, first, two, base); code != http.StatusOK {
		t.Fatalf("a stream from another address: %d", code)
	}
	if code, _ := openLobbyStream(t, ctx, two, base); code != http.StatusServiceUnavailable {
		t.Errorf("a stream past the cap in all: %d, want 503", code)
	}
	cancelFirst()
	for { // the server counts the closed stream out when it notices
		out := p.anon.changed()
		code, _ := openLobbyStream(t, ctx, two, base)
		if code == http.StatusOK {
			break
		}
		if code != http.StatusServiceUnavailable {
			t.Fatalf("after one closed: %d", code)
		}
		<-out
	}
}

// TestLobbyStreamsWithoutALinkAreLimited opens lobby streams (which need
// no link) from one address with the default limits until one is
// refused: it is, with 429, long before 50, and the lobby still answers
// while they are open.
func TestLobbyStreamsWithoutALinkAreLimited(t *testing.T) {
	_, base := runPlatform(t, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := clientFrom("127.0.0.1")
	refused := 0
	for i := 0; i < 50 && refused == 0; i++ {
		if code, _ := openLobbyStream(t, ctx, c, base); code != http.StatusOK {
			refused = code
		}
	}
	if refused != http.StatusTooManyRequests {
		t.Errorf("50 lobby streams from one address: the first refusal is %d, want 429", refused)
	}
	resp, err := c.Get(base + "/")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the lobby while the streams are open: %v %v", resp, err)
	}
	resp.Body.Close()
}

// TestLobbyStreamsEnd: a stream that needs no link ends after
// StreamLimits.Life, and its place is free once it has.
func TestLobbyStreamsEnd(t *testing.T) {
	_, base := runPlatform(t, Config{Streams: StreamLimits{Anonymous: 1, Life: 50 * time.Millisecond}})
	c := clientFrom("127.0.0.1")
	for i := range 2 {
		code, body := openLobbyStream(t, context.Background(), c, base)
		if code != http.StatusOK {
			t.Fatalf("stream %d: %d", i+1, code)
		}
		if _, err := io.Copy(io.Discard, body); err != nil { // returns once the server ends it
			t.Fatalf("stream %d: %v", i+1, err)
		}
	}
}

// TestAnonymousRequestsLeaveNoVisitorState sends refused starts and lobby
// streams without a cookie: the server keeps no inbox and, once the
// streams are over, no watch for any of those visitors.
func TestAnonymousRequestsLeaveNoVisitorState(t *testing.T) {
	p, base := runPlatform(t, Config{Streams: StreamLimits{Life: time.Millisecond}})
	c := clientFrom("127.0.0.1")
	for i := range 20 {
		form := url.Values{"name": {"Mallory"}, "nonce": {fmt.Sprintf("n%d", i)}, "topic": {"x"}}
		resp, err := c.PostForm(base+"/start", form)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Fatalf("start without the host link: %d", resp.StatusCode)
		}
		if _, body := openLobbyStream(t, context.Background(), c, base); body != nil {
			_, _ = io.Copy(io.Discard, body) // until the server ends it
		}
	}
	p.inbox.mu.Lock()
	defer p.inbox.mu.Unlock()
	if len(p.inbox.boxes) != 0 || len(p.inbox.watches) != 0 {
		t.Errorf("%d inboxes and %d watches kept for visitors without a link", len(p.inbox.boxes), len(p.inbox.watches))
	}
}

// TestInboxesExpireAndAreBounded: an inbox idle for inboxIdle is gone
// (by the injected clock), and when maxInboxes are kept the longest idle
// goes first.
func TestInboxesExpireAndAreBounded(t *testing.T) {
	now := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	in := newInboxes(func() time.Time { return now })
	in.add("ann", privItem{Channel: "r", Kind: privText, Text: "hello"}, []byte("file"))
	if items, _ := in.since("ann", "r", 0); len(items) != 1 {
		t.Fatalf("ann has %d items, want 1", len(items))
	}
	now = now.Add(inboxIdle)
	if items, _ := in.since("ann", "r", 0); len(items) != 0 {
		t.Errorf("an inbox idle for %s still shows %d items", inboxIdle, len(items))
	}
	if _, _, err := in.file("ann", 1); err == nil {
		t.Error("an expired inbox still serves its file")
	}
	in.add("bob", privItem{Channel: "r", Kind: privText, Text: "hi"}, nil)
	if _, kept := in.boxes["ann"]; kept || len(in.boxes) != 1 {
		t.Errorf("after a sweep: ann kept %v, %d inboxes", kept, len(in.boxes))
	}
	for i := range maxInboxes {
		now = now.Add(time.Second)
		in.add(fmt.Sprintf("u%d", i), privItem{Channel: "r", Kind: privText}, nil)
	}
	if _, kept := in.boxes["bob"]; kept || len(in.boxes) != maxInboxes {
		t.Errorf("past the bound: bob (the longest idle) kept %v, %d inboxes, want %d", kept, len(in.boxes), maxInboxes)
	}
	next, done := in.watch("carol")
	told := next()
	in.add("carol", privItem{Channel: "r", Kind: privText}, nil)
	<-told
	done()
	if len(in.watches) != 0 {
		t.Errorf("%d watches left after the stream ended", len(in.watches))
	}
}
