package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkWebFeed measures the web channel's feed (GET /r/<room>/feed,
// what a room's page and its live stream send) at 3,000 live tables on a
// bbolt file. Each table is started over HTTP by its organiser and has
// three more people and the Facilitator; round 1 is played (messages,
// proposals, ballots, each phase closed by the organiser) and round 2's
// message phase is open with two messages, on a clock that never fires a
// deadline. Then each person's browser asks for what is new in its room,
// table after table, one request at a time:
//
//	idle     nothing changed since the browser's last update (the page's
//	         state poll, and every stream woken by another room's change)
//	changed  the organiser extended the phase just before, and the room
//	         shows the notice (neither is timed): another person's first
//	         update after a change
//
// It reports, besides the time per update (ns/op),
//
//	cpu-us/feed  CPU of the process per update (server and client)
//	loads/feed   table logs, snapshots and archived rounds read from the
//	             store per update
//	heap-MB      heap in use after the updates (the tables, their rooms,
//	             and what reading them keeps)
//
// Run: go test ./bot -run '^$' -bench WebFeed -benchtime 3000x
// (ROUNDTABLE_BENCH_TABLES scales it; default 3000 tables).
func BenchmarkWebFeed(b *testing.B) {
	for _, n := range benchSizes(b, "ROUNDTABLE_BENCH_TABLES", 3000) {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			f := newFeedBench(b, n)
			b.Run("idle", func(b *testing.B) { f.run(b, false) })
			b.Run("changed", func(b *testing.B) { f.run(b, true) })
		})
	}
}

// feedBench is the server of BenchmarkWebFeed with its tables set up.
type feedBench struct {
	side   *browserSide
	store  *bottest.Reads
	tables []feedTable
}

// feedTable is one table's room, its people and their cursors.
type feedTable struct {
	room    string
	people  []bottest.User
	cursors []string // each person's latest cursor
}

func newFeedBench(b *testing.B, n int) *feedBench {
	db := benchDB(b, b.TempDir(), store.Options{})
	b.Cleanup(func() { db.Close() })
	cs := &bottest.Reads{DB: db}
	side := &browserSide{Platform: web.New(web.Config{Addr: "127.0.0.1:0", Secret: []byte("bench secret"), OpenLobby: true}, cs),
		transport: &http.Transport{MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024},
		browsers:  map[string]*browser{}, joinKeys: map[string]string{}}
	svc := benchService(side, cs, bottest.NewClock(time.Now()), time.Hour)
	stop := bottest.Serve(b, svc)
	b.Cleanup(stop)
	<-side.Ready()
	f := &feedBench{side: side, store: cs, tables: make([]feedTable, n)}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n && !b.Failed(); i = int(next.Add(1)) - 1 {
				if err := f.setUp(i); err != nil {
					b.Errorf("table %d: %v", i, err)
				}
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		b.FailNow()
	}
	if err := side.Sync(context.Background()); err != nil {
		b.Fatal(err)
	}
	quiet()
	return f
}

// quiet waits until the process has settled after the set-up (agents
// answered, posts delivered and saved): until it uses under 2% of a core
// over half a second, or for half a minute at most.
func quiet() {
	for range 60 {
		c0 := processCPU()
		time.Sleep(500 * time.Millisecond)
		if processCPU()-c0 < 10*time.Millisecond {
			return
		}
	}
}

// setUp starts table i, plays its first round and opens the second's
// message phase, then reads each person's feed once.
func (f *feedBench) setUp(i int) error {
	ctx := context.Background()
	t := &f.tables[i]
	for j := range 4 {
		t.people = append(t.people, bottest.User{ID: fmt.Sprintf("f%d-%d", i, j), Name: fmt.Sprintf("Person %d", j)})
	}
	starter := t.people[0]
	br, err := f.side.browserOf(ctx, starter)
	if err != nil {
		return err
	}
	form := map[string]string{"topic": fmt.Sprintf("Table %d: where do we meet?", i), "rounds": "3"}
	if err := f.side.start(ctx, br, starter, form); err != nil {
		return err
	}
	if t.room, err = f.side.roomOf(starter); err != nil {
		return err
	}
	steps := []func(bottest.User) error{
		func(u bottest.User) error { return f.side.Say(ctx, u, t.room, u.Name+": at the station, I think.") },
		func(u bottest.User) error {
			return f.side.Command(ctx, u, t.room, "propose", map[string]string{"text": "Meet at the station, says " + u.Name})
		},
		func(u bottest.User) error {
			return f.side.Command(ctx, u, t.room, "vote", map[string]string{"ballot": "A"})
		},
	}
	for _, u := range t.people[1:] {
		if err := f.side.Command(ctx, u, t.room, "join", nil); err != nil {
			return err
		}
	}
	for _, step := range steps {
		for _, u := range t.people {
			if err := step(u); err != nil {
				return err
			}
		}
		if err := f.side.Command(ctx, starter, t.room, "close", nil); err != nil {
			return err
		}
	}
	for _, u := range t.people[1:3] {
		if err := f.side.Say(ctx, u, t.room, u.Name+": the station it is."); err != nil {
			return err
		}
	}
	t.cursors = make([]string, len(t.people))
	for j := range t.people {
		if err := f.feed(ctx, t, j); err != nil {
			return err
		}
	}
	return nil
}

// roomOf returns the room of the table u started (its browser holds
// that room's organiser link).
func (w *browserSide) roomOf(u bottest.User) (string, error) {
	w.mu.Lock()
	br := w.browsers[u.ID]
	w.mu.Unlock()
	base, err := url.Parse(w.URL())
	if err != nil {
		return "", err
	}
	for _, c := range br.client.Jar.Cookies(base) {
		if room, ok := strings.CutPrefix(c.Name, "rt_org_"); ok {
			return room, nil
		}
	}
	return "", fmt.Errorf("%s started no room", u.ID)
}

// feed asks for what person j of table t has not seen, as its page does.
func (f *feedBench) feed(ctx context.Context, t *feedTable, j int) error {
	_, err := f.posts(ctx, t, j)
	return err
}

// posts asks for what person j of table t has not seen and returns how
// many posts it got.
func (f *feedBench) posts(ctx context.Context, t *feedTable, j int) (int, error) {
	br, err := f.side.browserOf(ctx, t.people[j])
	if err != nil {
		return 0, err
	}
	path := "/r/" + t.room + "/feed?since=" + t.cursors[j]
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(f.side.URL(), "/")+path, nil)
	if err != nil {
		return 0, err
	}
	resp, err := br.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, err
	}
	var u struct {
		Cursor string            `json:"cursor"`
		Posts  []json.RawMessage `json:"posts"`
		State  json.RawMessage   `json:"state"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(body, &u) != nil || len(u.State) == 0 || string(u.State) == "null" {
		return 0, fmt.Errorf("feed of room %s: %s %.200s", t.room, resp.Status, body)
	}
	t.cursors[j] = u.Cursor
	return len(u.Posts), nil
}

// change extends the open phase of table t as its organiser and returns
// once the room shows the notice (to the organiser's browser), so that
// what the change sets off is done before a timed update.
func (f *feedBench) change(ctx context.Context, t *feedTable) error {
	if err := f.side.Command(ctx, t.people[0], t.room, "extend", map[string]string{"by": "1s"}); err != nil {
		return err
	}
	for range 10000 {
		n, err := f.posts(ctx, t, 0)
		if err != nil || n > 0 {
			return err
		}
	}
	return fmt.Errorf("room %s shows no notice of the extension", t.room)
}

// run reads b.N feeds, table after table and person after person; with
// changed, each after its organiser extended the phase.
func (f *feedBench) run(b *testing.B, changed bool) {
	ctx := context.Background()
	var cpu time.Duration
	loads := int64(0)
	b.ResetTimer()
	for i := range b.N {
		t := &f.tables[i%len(f.tables)]
		j := i / len(f.tables) % len(t.people)
		if changed {
			b.StopTimer()
			if err := f.change(ctx, t); err != nil {
				b.Fatal(err)
			}
			j = 1 + i/len(f.tables)%(len(t.people)-1) // someone who has not seen the change
			b.StartTimer()
		}
		c0, l0 := processCPU(), f.store.N()
		if err := f.feed(ctx, t, j); err != nil {
			b.Fatal(err)
		}
		cpu += processCPU() - c0
		loads += f.store.N() - l0
	}
	b.StopTimer()
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/feed")
	b.ReportMetric(float64(loads)/float64(b.N), "loads/feed")
	b.ReportMetric(heapInUse(), "heap-MB")
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
