package web_test

import (
	"net/http"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// The room's feed (what its page and live stream show) and people's acts
// (a join, messages the room echoes, a command) read no table log and
// replay nothing: the bot keeps each table's state as its events arrive.
// An ended table, which leaves the bot's memory, is folded once from the
// store when its room is read, then kept.
func TestTheFeedAndActsReadNoTableLog(t *testing.T) {
	reads := &bottest.Reads{}
	e := newLiveEnvWith(t, web.Config{}, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		reads.DB = db
		return bottest.Service(p, reads, clock, nil)
	})
	room, ann, bob := e.twoPeople(t)
	feed := func(c *http.Client) {
		t.Helper()
		if code, body := e.send(t, c, "GET", "/r/"+room+"/feed", nil); code != http.StatusOK {
			t.Fatalf("feed: %d %s", code, body)
		}
	}
	n := reads.N()
	for _, act := range []struct {
		who  *http.Client
		body map[string]any
	}{
		{bob, map[string]any{"kind": "command", "command": "join"}},
		{ann, map[string]any{"kind": "message", "text": "Soup?"}},
		{bob, map[string]any{"kind": "message", "text": "Bread."}},
		{bob, map[string]any{"kind": "message", "text": "And cheese."}}, // refused: one message a round
		{ann, map[string]any{"kind": "command", "command": "status"}},
	} {
		e.act(t, act.who, room, act.body)
		feed(ann)
		feed(bob)
	}
	if got := reads.N() - n; got != 0 {
		t.Errorf("acts and feeds of a live table read the store %d times; want 0", got)
	}
	if code, a := e.act(t, ann, room, map[string]any{"kind": "command", "command": "stop"}); code != http.StatusOK {
		t.Fatalf("stop: %d %+v", code, a)
	}
	feed(ann)
	n = reads.N()
	for range 3 {
		feed(ann)
		feed(bob)
	}
	if got := reads.N() - n; got != 0 {
		t.Errorf("feeds of an ended table read the store %d times after the first; want 0", got)
	}
}
