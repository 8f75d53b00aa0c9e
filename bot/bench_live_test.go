package bot_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkLiveTables runs live tables through bot.Service on the
// reference platform (bottest.Fake) and a real bbolt file with fsync, on
// the wall clock: each table has four scripted people and the
// Facilitator; in every phase three of the people act at random moments
// in its first 60% and one does not, so every phase closes at its
// deadline. It reports
//
//	close-p50/p99-ms     deadline → PhaseClosed durable in the store
//	announce-p50/p99-ms  deadline → the next phase's post reaches the platform
//	starts/s             start commands answered per second (all tables started at once by 64 people)
//	late-acts            people's commands refused because their phase had closed
//
// Run: go test ./bot -run '^$' -bench LiveTables -benchtime 1x
// (ROUNDTABLE_BENCH_TABLES, _ROUNDS and _PHASE scale it; defaults 1000,3000 tables, 2 rounds, 5s).
func BenchmarkLiveTables(b *testing.B) { benchLive(b, fakePeople) }

// benchLive runs the live-table benchmark at each size on the platform
// people builds.
func benchLive(b *testing.B, people func(*store.DB) (peopleSide, func())) {
	rounds := benchSizes(b, "ROUNDTABLE_BENCH_ROUNDS", 2)[0]
	for _, n := range benchSizes(b, "ROUNDTABLE_BENCH_TABLES", 1000, 3000) {
		b.Run(fmt.Sprintf("tables=%d", n), func(b *testing.B) {
			for range b.N {
				liveRun(b, n, rounds, benchPhase(b), people)
			}
		})
	}
}

// phaseShown is a phase-open post: round and phase name.
type phaseShown struct {
	round int
	phase string
}

// peopleSide is a platform under test together with the people using it.
type peopleSide interface {
	bot.Platform
	Command(ctx context.Context, u bottest.User, channel, name string, opts map[string]string) error
	Say(ctx context.Context, u bottest.User, channel, text string) error
}

// livePlatform is a platform with probes: it tells each table's driver
// when a phase is shown, measures announcements, and counts ends.
type livePlatform struct {
	peopleSide
	probe *probeStore

	mu        sync.Mutex
	shows     map[string]chan phaseShown // by parent channel and by thread
	threads   map[string]string          // parent channel → table thread
	announces []time.Duration
	ended     sync.WaitGroup
	endedIn   map[string]bool // threads whose end was posted
	dupEnds   atomic.Int64
	late      atomic.Int64
}

func newLivePlatform(people peopleSide, probe *probeStore) *livePlatform {
	return &livePlatform{peopleSide: people, probe: probe, shows: map[string]chan phaseShown{}, threads: map[string]string{},
		endedIn: map[string]bool{}}
}

func (p *livePlatform) StartThread(ctx context.Context, channel, title string) (string, error) {
	thread, err := p.peopleSide.StartThread(ctx, channel, title)
	if err == nil {
		p.mu.Lock()
		if _, ok := p.shows[channel]; !ok { // started in a shared lobby: the title says which table
			var n int
			if _, err := fmt.Sscanf(strings.TrimPrefix(title, "roundtable: "), "Table %d:", &n); err == nil {
				channel = fmt.Sprintf("c%d", n)
			}
		}
		p.shows[thread] = p.shows[channel]
		p.threads[channel] = thread
		p.mu.Unlock()
	}
	return thread, err
}

func (p *livePlatform) Post(ctx context.Context, channel string, m bot.Message) (string, error) {
	id, err := p.peopleSide.Post(ctx, channel, m)
	now := time.Now()
	var sh phaseShown
	if _, scanErr := fmt.Sscanf(m.Text, "**Round %d of", &sh.round); scanErr == nil && strings.Contains(m.Text, " phase**") {
		sh.phase = m.Text[strings.Index(m.Text, ": ")+2 : strings.Index(m.Text, " phase**")]
		if d, ok := p.probe.shown(channel, now); ok {
			p.mu.Lock()
			p.announces = append(p.announces, d)
			p.mu.Unlock()
		}
		p.mu.Lock()
		ch := p.shows[channel]
		p.mu.Unlock()
		ch <- sh
	}
	if strings.HasPrefix(m.Text, "**The table has ended") {
		p.endOnce(channel)
	}
	return id, err
}

// ReadTables forwards to the platform under test when it reads tables
// through the service (the web channel), as it would get them unwrapped.
func (p *livePlatform) ReadTables(t *bot.Tables) {
	if r, ok := p.peopleSide.(bot.TableReader); ok {
		r.ReadTables(t)
	}
}

// Sync forwards to the platform under test when it saves posts after
// showing them (bot.Syncer), so delivery records wait for it as they
// would in the server.
func (p *livePlatform) Sync(ctx context.Context) error {
	if s, ok := p.peopleSide.(bot.Syncer); ok {
		return s.Sync(ctx)
	}
	return nil
}

// endOnce counts a table's end once; a second end post is a duplicate.
func (p *livePlatform) endOnce(channel string) {
	p.mu.Lock()
	again := p.endedIn[channel]
	p.endedIn[channel] = true
	p.mu.Unlock()
	if again {
		p.dupEnds.Add(1)
		return
	}
	p.ended.Done()
}

func (p *livePlatform) Reply(ctx context.Context, ev *bot.Event, r bot.Reply) error {
	if strings.Contains(r.Text, " phase, not the ") || strings.Contains(r.Text, "has ended") {
		p.late.Add(1)
	}
	return p.peopleSide.Reply(ctx, ev, r)
}

// liveRun runs tables on the platform people builds over the service's
// file; connected returns once it serves.
func liveRun(b *testing.B, tables, rounds int, phase time.Duration, people func(*store.DB) (peopleSide, func())) {
	b.StopTimer()
	db := benchDB(b, b.TempDir(), store.Options{})
	defer db.Close()
	probe := newProbeStore(db)
	side, connected := people(db)
	p := newLivePlatform(side, probe)
	svc := benchService(p, probe, bot.SystemClock{}, phase)
	stop := bottest.Serve(b, svc)
	defer stop()
	connected()
	p.ended.Add(tables)
	b.StartTimer()
	load := sampleLoad()
	began := time.Now()
	startLatencies := startTables(b, p, tables, rounds, phase)
	startSecs := time.Since(began).Seconds()
	if b.Failed() {
		return // a table did not start: it would never end
	}
	p.ended.Wait()
	b.StopTimer()
	probe.mu.Lock()
	closes := probe.closes
	probe.mu.Unlock()
	b.ReportMetric(percentile(closes, 50), "close-p50-ms")
	b.ReportMetric(percentile(closes, 99), "close-p99-ms")
	b.ReportMetric(percentile(p.announces, 50), "announce-p50-ms")
	b.ReportMetric(percentile(p.announces, 99), "announce-p99-ms")
	b.ReportMetric(float64(tables)/startSecs, "starts/s")
	b.ReportMetric(percentile(startLatencies, 99), "start-p99-ms")
	b.ReportMetric(float64(p.late.Load()), "late-acts")
	b.ReportMetric(float64(len(closes)), "closes")
	b.ReportMetric(float64(p.dupEnds.Load()), "dup-end-posts")
	load.report(b)
}

// fakePeople is the reference platform, bottest.Fake.
func fakePeople(*store.DB) (peopleSide, func()) {
	f := bottest.NewFake()
	return f, func() {
		for f.Command(context.Background(), bottest.User{ID: "warmup"}, "warmup", "help", nil) != nil {
			<-f.Updates() // Run hands the fake the handler
		}
	}
}

// startTables starts the tables from 64 goroutines and gives each its
// driver; it returns once every start command was answered, with their
// latencies.
func startTables(b *testing.B, p *livePlatform, tables, rounds int, phase time.Duration) []time.Duration {
	next := atomic.Int64{}
	lat := make([]time.Duration, tables)
	var wg sync.WaitGroup
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < tables; i = int(next.Add(1)) - 1 {
				lat[i] = startOne(b, p, i, rounds, phase)
			}
		}()
	}
	wg.Wait()
	return lat
}

// startOne starts table i as its first person and hands it to a driver.
func startOne(b *testing.B, p *livePlatform, i, rounds int, phase time.Duration) time.Duration {
	channel := fmt.Sprintf("c%d", i)
	people := make([]bottest.User, 4)
	for j := range people {
		people[j] = bottest.User{ID: fmt.Sprintf("u%d-%d", i, j), Name: fmt.Sprintf("Person %d", j)}
	}
	shows := make(chan phaseShown, 4*rounds)
	p.mu.Lock()
	p.shows[channel] = shows
	p.mu.Unlock()
	t0 := time.Now()
	err := p.Command(context.Background(), people[0], channel, "start",
		map[string]string{"topic": fmt.Sprintf("Table %d: where do we meet?", i), "rounds": fmt.Sprint(rounds)})
	took := time.Since(t0)
	if err != nil {
		b.Error(err)
		return took
	}
	p.mu.Lock()
	thread, ok := p.threads[channel]
	p.mu.Unlock()
	if !ok {
		b.Errorf("table %d: no thread after start", i)
		return took
	}
	if err := p.Command(context.Background(), people[0], thread, "begin", nil); err != nil {
		b.Error(err)
		return took
	}
	go drive(p, thread, people, shows, rounds, phase)
	return took
}

// drive seats a table's other three people and, in every phase, has three
// of the four act at random moments before 60% of the phase.
func drive(p *livePlatform, thread string, people []bottest.User, shows <-chan phaseShown, rounds int, phase time.Duration) {
	ctx := context.Background()
	for _, u := range people[1:] {
		_ = p.Command(ctx, u, thread, "join", nil)
	}
	for sh := range shows {
		idle := rand.IntN(len(people))
		for j, u := range people {
			if j == idle {
				continue
			}
			time.AfterFunc(rand.N(phase*6/10), func() { act(p, thread, u, sh) })
		}
		if sh.round == rounds && sh.phase == "vote" {
			return
		}
	}
}

func act(p *livePlatform, thread string, u bottest.User, sh phaseShown) {
	ctx := context.Background()
	switch sh.phase {
	case "message":
		_ = p.Say(ctx, u, thread, fmt.Sprintf("%s: round %d, I would meet at the station.", u.Name, sh.round))
	case "proposal":
		_ = p.Command(ctx, u, thread, "propose", map[string]string{"text": "Meet at the station at " + u.ID})
	case "vote":
		_ = p.Command(ctx, u, thread, "vote", map[string]string{"ballot": "A"})
	}
}
