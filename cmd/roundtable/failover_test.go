package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// failoverPlan sizes a run of the failover test.
type failoverPlan struct {
	processes int           // serve processes
	members   int           // etcd members
	tables    int           // clock tables kept live
	persons   int           // scripted people, each at a table of its own
	kills     int           // SIGKILLs of a random process
	leaseTTL  time.Duration // store.lease_ttl
	phase     time.Duration // each phase of a clock table
	rounds    int           // of a clock table
}

// failoverResult is what a run measured.
type failoverResult struct {
	takeovers  []time.Duration // kill → a table owned by another process
	firstPosts []time.Duration // kill → the first post of a taken-over table
	tables     int             // in the store at the end
	posts      int             // each exactly once
	acked      int             // acknowledged acts, each exactly once
	reruns     int             // phase closes run again, each deciding as the log says
}

// TestFailover runs three serve processes on a three-member etcd cluster
// behind a load balancer, with clock tables (a person seated who never
// acts: every phase closes at its deadline) and scripted people acting at
// tables of their own, and SIGKILLs a random process at random moments.
// Every table of a killed process is taken over by another; afterwards
// every post the logs imply is in its room exactly once, every act the
// servers acknowledged is in the logs exactly once, and every phase close
// run again from its log decides what the log says. The sizes here keep
// the suite quick; ROUNDTABLE_FAILOVER_FULL=1 runs 300 tables and 20
// kills and reports the figures.
func TestFailover(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	plan := failoverPlan{processes: 3, members: 3, tables: 12, persons: 2, kills: 3, leaseTTL: 2 * time.Second, phase: 2 * time.Second, rounds: 3}
	if os.Getenv("ROUNDTABLE_FAILOVER_FULL") != "" {
		plan.tables, plan.persons, plan.kills, plan.phase, plan.rounds, plan.leaseTTL = 300, 6, 20, 5*time.Second, 8, 3*time.Second
	}
	if n, err := strconv.Atoi(os.Getenv("ROUNDTABLE_FAILOVER_TABLES")); err == nil && n > 0 {
		plan.tables, plan.phase, plan.rounds = n, 5*time.Second, 8
	}
	if n, err := strconv.Atoi(os.Getenv("ROUNDTABLE_FAILOVER_KILLS")); err == nil && n > 0 {
		plan.kills = n
	}
	res := runFailover(t, plan)
	t.Logf("%d kills; %d tables; %d posts each exactly once; %d acknowledged acts each exactly once; %d phase closes run again as logged",
		plan.kills, res.tables, res.posts, res.acked, res.reruns)
	t.Logf("kill → taken over (%d tables): p50 %s, p99 %s, max %s", len(res.takeovers), pct(res.takeovers, 50), pct(res.takeovers, 99), pct(res.takeovers, 100))
	t.Logf("kill → first post of a taken-over table (%d): p50 %s, p99 %s, max %s", len(res.firstPosts), pct(res.firstPosts, 50), pct(res.firstPosts, 99), pct(res.firstPosts, 100))
}

// runFailover runs a plan and checks what it left in the store.
func runFailover(t *testing.T, plan failoverPlan) failoverResult {
	f := startFleet(t, fleetOptions{processes: plan.processes, members: plan.members, leaseTTL: plan.leaseTTL})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	keeper := newClockKeeper(f, plan)
	wg.Add(1)
	go func() { defer wg.Done(); keeper.run(ctx) }()
	people := make([]*scriptedPerson, plan.persons)
	for i := range people {
		people[i] = newScriptedPerson(f.lb.URL())
		people[i].tag = fmt.Sprintf("p%dk", i)
		phase := []string{strconv.Itoa(int(plan.phase / time.Second))}
		people[i].phases = url.Values{"message": phase, "proposal": phase, "vote": phase}
		wg.Add(1)
		go func() { defer wg.Done(); people[i].run(ctx) }()
	}
	keeper.waitLive(ctx, t)
	t.Logf("%d tables live", f.obs.live())
	var res failoverResult
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 24))
	for range plan.kills {
		select { // a random moment of the tables' lives
		case <-time.After(time.Duration(rng.IntN(int(3 * plan.phase)))):
		case <-ctx.Done():
		}
		p := f.procs[rng.IntN(len(f.procs))]
		res.measureKill(ctx, t, f, p)
		t.Logf("killed %s; %d taken over so far", p.name, len(res.takeovers))
		f.start(p) // restarted, as systemd would
	}
	keeper.stopStarting()
	for _, p := range people {
		p.stopStarting()
	}
	for _, p := range people {
		p.waitIdle(ctx)
	}
	t.Logf("kills done; waiting for the tables to end")
	keeper.waitEnded(ctx, t)
	t.Logf("clock tables ended")
	for _, p := range people {
		waitRoomsEnded(ctx, t, p)
	}
	cancel()
	wg.Wait()
	f.stopAll()

	st := readBackend(t, f.db)
	res.tables, res.posts = checkPosts(t, st)
	var acked []string
	for _, p := range people {
		acked = append(acked, p.acknowledged()...)
	}
	res.acked = checkAcked(t, st, acked)
	res.reruns = checkReruns(t, st)
	return res
}

// measureKill kills p and measures how long its running tables took to
// be taken over, and to post again.
func (r *failoverResult) measureKill(ctx context.Context, t *testing.T, f *fleet, p *fleetProc) {
	t.Helper()
	gone := f.obs.running(p.member)
	at := f.kill(p)
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	taken, ok := f.obs.takenOver(wctx, gone, p.member)
	if !ok {
		var left []string
		for _, id := range gone {
			if _, ok := taken[id]; !ok {
				left = append(left, id)
			}
		}
		t.Fatalf("after a kill of %s, %d of its %d tables were never taken over:\n%s", p.name, len(left), len(gone), f.mentions(left))
	}
	for id, when := range taken {
		if when.IsZero() {
			continue // it ended meanwhile
		}
		r.takeovers = append(r.takeovers, when.Sub(at))
		if pt, ok := f.obs.firstPostAfter(wctx, id, at); ok {
			r.firstPosts = append(r.firstPosts, pt.Sub(at))
		}
	}
}

// clockKeeper keeps a number of clock tables live through the balancer,
// starting a new one whenever one ends.
type clockKeeper struct {
	f      *fleet
	plan   failoverPlan
	client *http.Client

	mu      sync.Mutex
	n       int
	noStart bool
}

func newClockKeeper(f *fleet, plan failoverPlan) *clockKeeper {
	jar, _ := cookiejar.New(nil)
	return &clockKeeper{f: f, plan: plan, client: &http.Client{Jar: jar, Timeout: 10 * time.Second}}
}

// starters is how many clock tables a keeper starts at once: enough
// that hundreds of short tables stay live.
const starters = 8

// run starts tables while fewer than the plan's are live.
func (k *clockKeeper) run(ctx context.Context) {
	var wg sync.WaitGroup
	for range starters {
		wg.Add(1)
		go func() { defer wg.Done(); k.keep(ctx) }()
	}
	wg.Wait()
}

// keep is one of run's starters.
func (k *clockKeeper) keep(ctx context.Context) {
	for ctx.Err() == nil {
		k.mu.Lock()
		stop := k.noStart
		k.mu.Unlock()
		if stop || k.f.obs.live() >= k.plan.tables+k.plan.persons {
			if !pause(ctx) {
				return
			}
			continue
		}
		k.start(ctx)
	}
}

// start starts one clock table: its starter sits at it and never acts,
// two rule-based traders act at once.
func (k *clockKeeper) start(ctx context.Context) {
	k.mu.Lock()
	k.n++
	n := k.n
	k.mu.Unlock()
	phase := strconv.Itoa(int(k.plan.phase / time.Second))
	form := url.Values{"nonce": {fmt.Sprintf("clock-%d", n)}, "name": {"Clock"}, "title": {fmt.Sprintf("Clock %d", n)},
		"preset": {"exchange-economy"}, "rounds": {strconv.Itoa(k.plan.rounds)}, "mode": {"sealed"},
		"message": {phase}, "proposal": {phase}, "vote": {phase},
		"start": {"full"}, "seats": {"3"}} // the starter and the two traders: it starts as it is made
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, k.f.lb.URL()+"/start", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := k.client.Do(req)
	if err != nil {
		pause(ctx)
		return
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Request.URL.Path, "/r/") {
		pause(ctx) // a balancer with no process up, a table moving: the next start goes on
	}
}

func (k *clockKeeper) stopStarting() {
	k.mu.Lock()
	k.noStart = true
	k.mu.Unlock()
}

// waitLive waits until the plan's tables are live.
func (k *clockKeeper) waitLive(ctx context.Context, t testing.TB) {
	t.Helper()
	for k.f.obs.live() < k.plan.tables {
		if !pause(ctx) {
			t.Fatal("stopped waiting")
		}
	}
}

// waitEnded waits until every table has ended, and its end is posted.
func (k *clockKeeper) waitEnded(ctx context.Context, t *testing.T) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	for k.f.obs.live() > 0 || k.f.obs.undelivered() > 0 {
		if !pause(wctx) {
			stuck := k.f.obs.liveTables()
			t.Fatalf("%d tables never ended, %d ended tables never posted their end; the first:\n%s\nthe processes' last words:\n%s",
				len(stuck), k.f.obs.undelivered(), k.f.mentions(stuck[:min(len(stuck), 2)]), k.f.lastWords())
		}
	}
}

// pct is the p-th percentile of ds (100: the largest).
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)].Round(time.Millisecond)
}
