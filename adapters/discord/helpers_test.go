package discord_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/discord"
	"github.com/roundtable-ai/roundtable/adapters/discord/discordtest"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
)

// logBuffer collects a test's logs.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// testLogger logs everything to a buffer and, when the test ends, fails
// it if the token of the fake ever appears there.
func testLogger(t *testing.T) *slog.Logger {
	l, _ := testLogs(t)
	return l
}

// testLogs is testLogger with the buffer its logs go to.
func testLogs(t *testing.T) (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	t.Cleanup(func() {
		secret := strings.TrimPrefix(discordtest.DefaultToken, "Bot ")
		if strings.Contains(b.String(), secret) {
			t.Errorf("the token appears in the logs:\n%s", b.String())
		}
		if t.Failed() {
			t.Logf("logs:\n%s", b.String())
		}
	})
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}

// waitUntil waits until cond holds, checking on the fake's updates and
// every few milliseconds (for conditions on the client's side).
func waitUntil(t *testing.T, srv *discordtest.Server, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-srv.Updates():
		case <-tick.C:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// run runs p with h until the test ends, and waits until the bot is
// connected with its command registered.
func run(t *testing.T, srv *discordtest.Server, p bot.Platform, h bot.Handler) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, h) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	waitUntil(t, srv, "the bot to connect", func() bool { return srv.Connected() && srv.Registered() })
}

// recorder is a handler that keeps every event it is given.
type recorder struct {
	mu     sync.Mutex
	events []*bot.Event
	next   bot.Handler // optional
}

func (r *recorder) handle(ctx context.Context, ev *bot.Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	r.mu.Unlock()
	if r.next != nil {
		r.next(ctx, ev)
	}
}

func (r *recorder) all() []*bot.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*bot.Event(nil), r.events...)
}

// recording is a platform whose events pass through a recorder on their
// way to the service.
type recording struct {
	bot.Platform
	rec *recorder
}

func (p recording) Run(ctx context.Context, h bot.Handler) error {
	p.rec.next = h
	return p.Platform.Run(ctx, p.rec.handle)
}

// postStarting returns the first post of channel whose text starts with
// prefix.
func postStarting(srv *discordtest.Server, channel, prefix string) (bottest.Post, bool) {
	for _, p := range srv.Posts(channel) {
		if strings.HasPrefix(p.Text, prefix) {
			return p, true
		}
	}
	return bottest.Post{}, false
}

func privately(srv *discordtest.Server, u bottest.User, s string) bool {
	for _, p := range srv.Private(u) {
		if strings.Contains(p.Text, s) {
			return true
		}
	}
	return false
}

// waitPost waits for the bot's post in channel that starts with prefix:
// the bot delivers posts in the background, after the command that caused
// them has been answered.
func waitPost(t *testing.T, srv *discordtest.Server, channel, prefix string) bottest.Post {
	t.Helper()
	var m bottest.Post
	waitUntil(t, srv, "the post "+prefix, func() bool {
		var ok bool
		m, ok = postStarting(srv, channel, prefix)
		return ok
	})
	return m
}

// startThreads starts n threads in the fake's channel, named after what.
func startThreads(t *testing.T, srv *discordtest.Server, p *discord.Platform, what string, n int) []string {
	t.Helper()
	out := make([]string, n)
	for i := range out {
		var err error
		out[i], err = p.StartThread(context.Background(), srv.Channel(), fmt.Sprintf("%s %d", what, i))
		must(t, err)
	}
	return out
}
