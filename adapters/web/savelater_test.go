package web_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	rule "github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// lossyBlobs is a file whose batched writes never become durable, as if
// the process died before each of them: the room records a crash loses.
type lossyBlobs struct {
	*store.DB
	tried chan struct{}
}

func (l *lossyBlobs) AddBlobs(context.Context, []roundtable.Blob) error {
	select {
	case l.tried <- struct{}{}:
	default:
	}
	return errors.New("the disk is gone")
}

// noticed is the web platform with a signal after every post.
type noticed struct {
	*web.Platform
	posted chan struct{}
}

func (n noticed) Post(ctx context.Context, channel string, m bot.Message) (string, error) {
	id, err := n.Platform.Post(ctx, channel, m)
	select {
	case n.posted <- struct{}{}:
	default:
	}
	return id, err
}

func lunchService(db *store.DB, p bot.Platform) *bot.Service {
	cfg := bot.Config{Defaults: roundtable.Config{Rule: rule.Plurality, Rounds: 2, Mode: roundtable.Sealed,
		Durations: roundtable.Durations{Message: time.Hour, Proposal: time.Hour, Vote: time.Hour}}}
	deps := bot.Deps{Store: db, Clock: bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)),
		Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			return roundtable.TextTask{Topic: spec.Topic}, nil
		}}
	return bot.New(cfg, deps, p)
}

// Posts are shown at once and saved after. A post whose record never
// became durable (the process died first) is not recorded as delivered
// by the bot either, so the next start posts it again: the room ends up
// with every post the log implies, once each, in order.
func TestPostsWhoseRecordsWereLostArePostedAgainAtTheNextStart(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(filepath.Join(t.TempDir(), "web.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	lossy := &lossyBlobs{DB: db, tried: make(chan struct{}, 1)}
	first := web.New(web.Config{Addr: "127.0.0.1:0", Secret: []byte("s")}, lossy)
	svc := lunchService(db, first)
	stop := bottest.Serve(t, svc)
	<-first.Ready()
	starter := bot.User{ID: "web:alice", Name: "Alice"}
	svc.Handle(ctx, &bot.Event{Platform: web.Name, Kind: bot.KindCommand, ID: "start-1", User: starter, Channel: web.Lobby,
		Command: "start", Options: map[string]string{"topic": "Where do we have lunch?"}})
	<-lossy.tried // the first posts are shown; their records fail
	stop()
	if recs, err := db.Blobs(ctx, "posts", ""); err != nil || len(recs) != 0 {
		t.Fatalf("delivery records %v (%v): none may be written while the posts are not saved", recs, err)
	}
	rooms, err := web.ReadRooms(ctx, db)
	if err != nil || len(rooms) != 1 {
		t.Fatalf("rooms %v (%v), want the table's room, empty", rooms, err)
	}
	var room string
	for id, posts := range rooms {
		room = id
		if len(posts) != 0 {
			t.Fatalf("the room kept %d posts whose records failed", len(posts))
		}
	}

	second := noticed{Platform: web.New(web.Config{Addr: "127.0.0.1:0", Secret: []byte("s")}, db), posted: make(chan struct{}, 1)}
	stop = bottest.Serve(t, lunchService(db, second))
	defer stop()
	id, ok, err := db.Lookup(ctx, web.Name+":"+room)
	if err != nil || !ok {
		t.Fatalf("no table in room %s: %v", room, err)
	}
	evs, err := db.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want, err := bottest.ImpliedPosts(evs)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for len(got) < len(want) {
		<-second.posted
		if err := second.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		rooms, err := web.ReadRooms(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		got = got[:0]
		for _, p := range rooms[room] {
			got = append(got, strings.TrimPrefix(p.Key, id+"/"))
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("saved posts %q, want each implied post once, in order: %q", got, want)
	}
}
