package bot_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkLiveTablesWeb is BenchmarkLiveTables on the web channel
// (adapters/web, its rooms saved in the service's bbolt file): everything
// the service posts, edits and replies goes through the web platform.
// People's acts are handed to the service as the web platform's events
// directly, not over HTTP, so the figures are those of the posting side.
//
// Run: go test ./bot -run '^$' -bench LiveTablesWeb -benchtime 1x
// (ROUNDTABLE_BENCH_TABLES, _ROUNDS and _PHASE scale it as for BenchmarkLiveTables).
func BenchmarkLiveTablesWeb(b *testing.B) { benchLive(b, webPeople) }

// webSide is the web platform with its people acting as its events.
type webSide struct {
	*web.Platform
	ready chan struct{}
	ids   atomic.Int64

	mu sync.Mutex
	h  bot.Handler
}

func webPeople(db *store.DB) (peopleSide, func()) {
	w := &webSide{Platform: web.New(web.Config{Addr: "127.0.0.1:0", Secret: []byte("bench secret")}, db), ready: make(chan struct{})}
	return w, func() { <-w.ready }
}

func (w *webSide) Run(ctx context.Context, h bot.Handler) error {
	w.mu.Lock()
	w.h = h
	w.mu.Unlock()
	close(w.ready)
	return w.Platform.Run(ctx, h)
}

func (w *webSide) Command(ctx context.Context, u bottest.User, channel, name string, opts map[string]string) error {
	return w.deliver(ctx, &bot.Event{Kind: bot.KindCommand, User: bot.User{ID: u.ID, Name: u.Name}, Channel: channel, Command: name, Options: opts})
}

func (w *webSide) Say(ctx context.Context, u bottest.User, channel, text string) error {
	return w.deliver(ctx, &bot.Event{Kind: bot.KindMessage, User: bot.User{ID: u.ID, Name: u.Name}, Channel: channel, Text: text})
}

func (w *webSide) deliver(ctx context.Context, ev *bot.Event) error {
	w.mu.Lock()
	h := w.h
	w.mu.Unlock()
	ev.Platform, ev.ID = w.Name(), fmt.Sprintf("bench-%d", w.ids.Add(1))
	h(ctx, ev)
	return nil
}
