package web

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

func openStore(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "web.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Error(err)
		}
		_ = db.Close()
	})
	return db
}

func TestRoomsAreStoredAppendOnly(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	rs := newRooms(newSignal(), db)
	id, err := rs.create(ctx, Lobby, "Lunch", "u1", time.Unix(1e9, 0))
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for i := range 100 {
		pid, err := rs.add(ctx, id, post{Kind: authorBot, Author: authorBot, Text: fmt.Sprintf("post %d %s", i, strings.Repeat("x", 200))})
		if err != nil {
			t.Fatal(err)
		}
		first = cmpOr(first, pid)
	}
	if err := rs.edit(ctx, id, first, bot.Message{Text: "edited"}); err != nil {
		t.Fatal(err)
	}
	if err := rs.sync(ctx); err != nil { // posts are saved after they are shown
		t.Fatal(err)
	}
	records, most := 0, 0
	err = db.EachBlob(ctx, blobPostsNS+id, func(_ string, v []byte) error {
		records, most = records+1, max(most, len(v))
		return nil
	})
	if err != nil || records != 101 || most > 400 {
		t.Errorf("%d records, the largest %d bytes (%v); want 101 of one post each", records, most, err)
	}

	again := newRooms(newSignal(), db)
	if err := again.load(ctx); err != nil {
		t.Fatal(err)
	}
	posts, ver := again.since(id, 0)
	if len(posts) != 100 || ver != 101 || posts[0].Text != "edited" || posts[0].ID != first || !strings.HasPrefix(posts[99].Text, "post 99 ") {
		t.Errorf("reloaded: %d posts at version %d, first %+v", len(posts), ver, posts[0])
	}
	if h, ok := again.info(id); !ok || h.Title != "Lunch" || h.Creator != "u1" {
		t.Errorf("reloaded header %+v, %t", h, ok)
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestRoomsOfEarlierVersionsAreConverted(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	old := legacyRoom{header: header{ID: "rold", Title: "Old", Parent: Lobby}, Posts: []*post{
		{ID: "rold-1", N: 1, Ver: 3, Text: "edited intro"}, {ID: "rold-2", N: 2, Ver: 2, Text: "second"}}}
	raw, _ := json.Marshal(old)
	index, _ := json.Marshal([]string{"rold"})
	if err := db.PutBlob(ctx, legacyRoomsNS, "rold", raw); err != nil {
		t.Fatal(err)
	}
	if err := db.PutBlob(ctx, legacyNS, legacyIndex, index); err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second load finds the converted rooms only
		rs := newRooms(newSignal(), db)
		if err := rs.load(ctx); err != nil {
			t.Fatal(err)
		}
		posts, ver := rs.since("rold", 0)
		if len(posts) != 2 || ver != 3 || posts[0].Text != "edited intro" || posts[1].Text != "second" {
			t.Errorf("converted room: %+v at version %d", posts, ver)
		}
	}
	if _, ok, _ := db.GetBlob(ctx, legacyNS, legacyIndex); ok {
		t.Errorf("the old index is still there")
	}
}

// endedReader is a bot whose tables are as listed.
type endedReader struct {
	Tables                               // what the sweep does not ask: nil
	tables map[string]roundtable.Summary // by room
}

func (r endedReader) Lookup(_ context.Context, room string) (string, bool, error) {
	s, ok := r.tables[room]
	return s.ID, ok, nil
}

func (r endedReader) Ended(context.Context) (map[string]time.Time, error) {
	out := map[string]time.Time{}
	for _, s := range r.tables {
		if s.Status == roundtable.StatusEnded {
			out[s.ID] = s.Updated
		}
	}
	return out, nil
}

func TestRoomsExpireWithTheirTables(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	now := time.Date(2026, 1, 31, 12, 0, 0, 0, time.UTC)
	r := endedReader{tables: map[string]roundtable.Summary{}}
	p := New(Config{Now: func() time.Time { return now }, Retention: 24 * time.Hour}, db)
	p.tables = r
	open := func(status roundtable.Status, updated time.Time, bound bool) string {
		id, err := p.rooms.create(ctx, Lobby, "t", "", now.Add(-48*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.rooms.add(ctx, id, post{Text: "hello"}); err != nil {
			t.Fatal(err)
		}
		if bound {
			r.tables[id] = roundtable.Summary{ID: "t-" + id, Status: status, Updated: updated}
		}
		return id
	}
	running := open(roundtable.StatusRunning, now.Add(-72*time.Hour), true)
	justEnded := open(roundtable.StatusEnded, now.Add(-time.Hour), true)
	longEnded := open(roundtable.StatusEnded, now.Add(-25*time.Hour), true)
	tableless := open("", time.Time{}, false)
	if err := p.Sync(ctx); err != nil {
		t.Fatal(err)
	}

	n, err := p.sweep(ctx)
	if err != nil || n != 2 {
		t.Fatalf("sweep deleted %d rooms (%v), want 2", n, err)
	}
	for id, want := range map[string]bool{running: true, justEnded: true, longEnded: false, tableless: false} {
		_, ok := p.rooms.info(id)
		records := 0
		_ = db.EachBlob(ctx, blobPostsNS+id, func(string, []byte) error { records++; return nil })
		_, saved, _ := db.GetBlob(ctx, blobHeadersNS, id)
		if ok != want || saved != want || (records == 1) != want {
			t.Errorf("room %s: in memory %t, saved %t, %d records; want kept = %t", id, ok, saved, records, want)
		}
	}
}

// Earlier versions rewrote one index of rooms per new room, and rooms
// opened at the same moment could overwrite each other's index: rooms were
// lost at the next start. Each room's header is its own record now.
func TestRoomsOpenedAtOnceAllSurviveARestart(t *testing.T) {
	ctx := context.Background()
	db := openStore(t)
	rs := newRooms(newSignal(), db)
	ids := make([]string, 200)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			id, err := rs.create(ctx, Lobby, fmt.Sprintf("table %d", i), "", time.Unix(1e9, 0))
			if err != nil {
				t.Error(err)
			}
			ids[i] = id
		})
	}
	wg.Wait()
	again := newRooms(newSignal(), db)
	if err := again.load(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, ok := again.info(id); !ok {
			t.Errorf("room %s was lost", id)
		}
	}
}
