package openai

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"3", 3 * time.Second, true},
		{" 0 ", 0, true},
		{"1.5", 1500 * time.Millisecond, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{"Sun, 01 Mar 2026 11:00:00 GMT", 0, true}, // in the past
		{"", 0, false},
		{"-1", 0, false},
		{"soon", 0, false},
	}
	for _, c := range cases {
		got, ok := parseRetryAfter(c.in, now)
		if got != c.want || ok != c.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestBackoffGrowsWithJitterUpToTheCap(t *testing.T) {
	lowest := func(int64) int64 { return 0 }
	highest := func(n int64) int64 { return n - 1 }
	for n, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		lo, hi := backoff(100*time.Millisecond, time.Second, n, lowest), backoff(100*time.Millisecond, time.Second, n, highest)
		if lo != want/2 || hi != want {
			t.Errorf("retry %d: backoff in [%v, %v], want [%v, %v]", n, lo, hi, want/2, want)
		}
	}
	if d := backoff(time.Second, time.Minute, 200, highest); d != time.Minute {
		t.Errorf("huge retry count: %v, want the cap", d)
	}
}

func TestRetryableStatuses(t *testing.T) {
	for status, want := range map[int]bool{429: true, 500: true, 502: true, 503: true, 504: true, 408: true, 529: true,
		400: false, 401: false, 404: false, 501: false, 200: false} {
		if retryable(status) != want {
			t.Errorf("retryable(%d) = %v", status, !want)
		}
	}
}

// scriptServer answers with statuses in turn and records the bodies it got.
type scriptServer struct {
	mu       sync.Mutex
	statuses []int
	headers  []string // Retry-After per answer
	bodies   []string
}

func (s *scriptServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, string(b))
	status, ra := http.StatusOK, ""
	if n < len(s.statuses) {
		status, ra = s.statuses[n], s.headers[n]
	}
	s.mu.Unlock()
	if ra != "" {
		w.Header().Set("Retry-After", ra)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	if status != http.StatusOK {
		io.WriteString(w, `{"error":{"message":"try later","type":"server_error","code":null}}`)
		return
	}
	io.WriteString(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":7,"completion_tokens":2,"total_tokens":9}}`)
}

func newTestClient(t *testing.T, srv http.Handler, cfg Config, sleeps *[]time.Duration) *Client {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	cfg.BaseURL, cfg.Model, cfg.APIKey = hs.URL+"/v1", "m", "sk-unit-test-key"
	var mu sync.Mutex
	return New(cfg, WithJitter(func(n int64) int64 { return n - 1 }), WithSleep(func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		*sleeps = append(*sleeps, d)
		mu.Unlock()
		return ctx.Err()
	}))
}

var hello = agent.Request{Messages: []agent.ChatMessage{{Role: agent.RoleUser, Content: "hello"}}}

func TestRetriesRebuildTheBodyAndHonourRetryAfter(t *testing.T) {
	srv := &scriptServer{statuses: []int{429, 503, 500}, headers: []string{"7", "", ""}}
	var sleeps []time.Duration
	c := newTestClient(t, srv, Config{BackoffBase: time.Millisecond, BackoffMax: 4 * time.Millisecond}, &sleeps)
	resp, err := c.Complete(context.Background(), hello)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "hi" || resp.Usage.Retries != 3 || resp.Usage.PromptTokens != 7 {
		t.Errorf("response %+v", resp)
	}
	if want := []time.Duration{7 * time.Second, 2 * time.Millisecond, 4 * time.Millisecond}; !equalDurations(sleeps, want) {
		t.Errorf("waits %v, want %v", sleeps, want)
	}
	for i, b := range srv.bodies {
		if b != srv.bodies[0] || !strings.Contains(b, `"hello"`) {
			t.Errorf("attempt %d sent body %q, want the original %q", i, b, srv.bodies[0])
		}
	}
}

func TestRetriesGiveUpAfterMaxRetries(t *testing.T) {
	srv := &scriptServer{statuses: []int{429, 429, 429}, headers: []string{"", "", ""}}
	var sleeps []time.Duration
	c := newTestClient(t, srv, Config{MaxRetries: 2}, &sleeps)
	_, err := c.Complete(context.Background(), hello)
	var e *agent.Error
	if !errors.As(err, &e) || e.Code != agent.CodeRateLimit || e.Usage.Retries != 2 || len(srv.bodies) != 3 {
		t.Fatalf("err %v (%+v) after %d attempts; want rate_limit after 3", err, e, len(srv.bodies))
	}
	if u := c.Usage(); u.Failures != 1 || u.Retries != 2 {
		t.Errorf("totals %+v", u)
	}
}

func TestNoRetryOnClientErrorsOrTooLongRetryAfter(t *testing.T) {
	for _, s := range []*scriptServer{
		{statuses: []int{400}, headers: []string{""}},
		{statuses: []int{429}, headers: []string{"3600"}},
	} {
		var sleeps []time.Duration
		c := newTestClient(t, s, Config{}, &sleeps)
		if _, err := c.Complete(context.Background(), hello); err == nil || len(s.bodies) != 1 || len(sleeps) != 0 {
			t.Errorf("status %d: err %v after %d attempts, %v waits; want one attempt", s.statuses[0], err, len(s.bodies), sleeps)
		}
	}
}

func TestCancelledWaitStopsRetrying(t *testing.T) {
	srv := &scriptServer{statuses: []int{503, 503}, headers: []string{"", ""}}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c := New(Config{BaseURL: hs.URL + "/v1", Model: "m"}, WithSleep(func(ctx context.Context, d time.Duration) error {
		cancel()
		return ctx.Err()
	}))
	_, err := c.Complete(ctx, hello)
	var e *agent.Error
	if !errors.As(err, &e) || e.Code != agent.CodeCanceled || len(srv.bodies) != 1 {
		t.Fatalf("err %v after %d attempts; want canceled after 1", err, len(srv.bodies))
	}
}

// TestAttemptTimeoutIsNotRetried: a server that took the request and
// did not answer within the attempt's timeout is not asked again (a hung
// server would hold every retry as long); the call fails as a timeout.
func TestAttemptTimeoutIsNotRetried(t *testing.T) {
	var mu sync.Mutex
	n := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		mu.Unlock()
		io.Copy(io.Discard, r.Body) // the server notices a closed connection only once the body is read
		<-r.Context().Done()        // hang until the attempt times out
	})
	var sleeps []time.Duration
	c := newTestClient(t, h, Config{Timeout: 20 * time.Millisecond}, &sleeps)
	_, err := c.Complete(context.Background(), hello)
	var e *agent.Error
	if !errors.As(err, &e) || e.Code != agent.CodeTimeout || e.Usage.Retries != 0 {
		t.Fatalf("err %v (%+v); want a timeout without retries", err, e)
	}
	mu.Lock()
	defer mu.Unlock()
	if n != 1 || len(sleeps) != 0 {
		t.Errorf("%d attempts and waits %v, want 1 attempt and no wait", n, sleeps)
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
