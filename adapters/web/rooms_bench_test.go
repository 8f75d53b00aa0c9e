package web

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkRoomPosts posts into 1,000 rooms at once through Platform.Post
// on a real bbolt file with fsync, as the bot posts for 1,000 live
// tables. prior is how many posts each room holds already: with rooms
// stored append-only, a post costs the same in a long room as in a new
// one. Run with
//
//	go test -run '^$' -bench RoomPosts -benchtime 20000x ./adapters/web/
func BenchmarkRoomPosts(b *testing.B) {
	for _, prior := range []int{0, 100} {
		b.Run(fmt.Sprintf("rooms=1000/prior=%d", prior), func(b *testing.B) { benchRoomPosts(b, 1000, prior) })
	}
}

func benchRoomPosts(b *testing.B, nRooms, prior int) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "web.db")
	ids := fillRooms(b, path, nRooms, prior)
	db, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	p := New(Config{}, benchReader{db})
	if err := p.rooms.load(ctx); err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat("A phase post of ordinary length. ", 12)
	var next atomic.Int64
	b.SetParallelism(max(1, nRooms/(2*8))) // about 60 posts in flight on 2 cores
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			room := ids[int(next.Add(1))%len(ids)]
			if _, err := p.Post(ctx, room, bot.Message{Text: text}); err != nil {
				b.Error(err)
				return
			}
		}
	})
	if err := p.Sync(ctx); err != nil { // the posts shown at once are all saved
		b.Fatal(err)
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "posts/s")
}

// fillRooms opens nRooms rooms of prior posts each in the file at path
// (without fsync: this is set-up) and returns their IDs.
func fillRooms(b *testing.B, path string, nRooms, prior int) []string {
	ctx := context.Background()
	db, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	rs := newRooms(newSignal(), db)
	ids := make([]string, nRooms)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			id, err := rs.create(ctx, Lobby, "table", "", time.Time{})
			if err != nil {
				b.Error(err)
				return
			}
			ids[i] = id
			for range prior {
				if _, err := rs.add(ctx, id, post{Text: "earlier post"}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := rs.sync(ctx); err != nil {
		b.Fatal(err)
	}
	return ids
}

// benchReader gives the platform the store's blobs and no tables.
type benchReader struct{ *store.DB }
