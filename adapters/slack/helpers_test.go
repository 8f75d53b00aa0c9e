package slack_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/slack"
	"github.com/roundtable-ai/roundtable/adapters/slack/slackfake"
	"github.com/roundtable-ai/roundtable/bot"
)

// logSink collects an adapter's logs and checks, when the test ends, that
// no secret was logged.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func newLogSink(t *testing.T) *logSink {
	s := &logSink{}
	t.Cleanup(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, secret := range []string{slackfake.BotToken, slackfake.AppToken, signingSecret} {
			if strings.Contains(s.buf.String(), secret) {
				t.Errorf("a secret was logged: %s", s.buf.String())
			}
		}
	})
	return s
}

func (s *logSink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *logSink) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

func (s *logSink) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(s, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

const signingSecret = "fake-signing-secret-8f0e"

// config is the adapter's configuration against fake, pacing posts and
// history reads 1ms apart.
func config(fake *slackfake.Server) slack.Config {
	return slack.Config{BotToken: slackfake.BotToken, AppToken: slackfake.AppToken, SigningSecret: signingSecret,
		APIURL: fake.APIURL(), PostInterval: time.Millisecond, HistoryInterval: time.Millisecond}
}

func newPlatform(fake *slackfake.Server, log *slog.Logger) *slack.Platform {
	return slack.New(config(fake), log)
}

// waitUntil waits for cond, woken by the fake's updates.
func waitUntil(t *testing.T, fake *slackfake.Server, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(10 * time.Second)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-fake.Updates():
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// run runs p until the test ends.
func run(t *testing.T, p *slack.Platform, h bot.Handler) {
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
}
