package bot_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

const phase = 2 * time.Minute

// deliveryEnv runs a service over the reference fake and a real bbolt
// file, with fast retries.
type deliveryEnv struct {
	t     *testing.T
	fake  *bottest.Fake
	db    *store.DB
	clock *bottest.Clock
	svc   *bot.Service // the service running
	stop  func()
}

func newDeliveryEnv(t *testing.T) *deliveryEnv {
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := &deliveryEnv{t: t, fake: bottest.NewFake(), db: db, clock: bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))}
	e.start()
	t.Cleanup(func() {
		e.stop()
		_ = db.Close()
	})
	return e
}

// scribeService is a service over fake with the Scribe agent at every
// table (sealed, phases of 2 minutes).
func scribeService(st bot.Store, fake *bottest.Fake, clock *bottest.Clock, rounds int, retry time.Duration) *bot.Service {
	cfg := bot.Config{
		Defaults: roundtable.Config{Rule: vote.Plurality, Rounds: rounds, Mode: roundtable.Sealed,
			Durations: roundtable.Durations{Message: phase, Proposal: phase, Vote: phase}},
		Agents:        map[string]roundtable.Participant{"Scribe": {ID: "agent:scribe", Name: "Scribe", Kind: roundtable.Bot, Agent: "scribe"}},
		DefaultAgents: []string{"Scribe"},
		RetryMin:      retry,
		RetryMax:      4 * retry,
	}
	deps := bot.Deps{Store: st, Clock: clock,
		Agent: func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) { return bottest.Scribe{}, nil },
		Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			return roundtable.TextTask{Topic: spec.Topic}, nil
		}}
	return bot.New(cfg, deps, fake)
}

func (e *deliveryEnv) start() { e.startOn(e.db) }

// startOn runs the environment's service over st (the file, or a store
// wrapping it).
func (e *deliveryEnv) startOn(st bot.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	e.svc = scribeService(st, e.fake, e.clock, 2, time.Millisecond)
	go func() { done <- e.svc.Run(ctx) }()
	e.waitFor("the service to connect", func() bool {
		return e.fake.Command(context.Background(), bottest.Carol, "general", "help", nil) == nil
	})
	e.stop = func() {
		cancel()
		if err := <-done; err != nil {
			e.t.Errorf("service: %v", err)
		}
		e.stop = func() {}
	}
}

// waitFor waits for cond, woken by the fake's updates or, while posts
// fail (and the fake shows nothing new), by the store.
func (e *deliveryEnv) waitFor(what string, cond func() bool) {
	e.t.Helper()
	waitOnFake(e.t, e.fake, what, cond)
}

// waitOnFake waits up to 20 s for cond, checking it on each update of
// fake and every 2 ms (agents, retries and the store give no signal).
func waitOnFake(t *testing.T, fake *bottest.Fake, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-fake.Updates():
		case <-time.After(2 * time.Millisecond):
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// startTable starts a table as Alice (seated unless organiser) and
// returns its thread and ID: it makes it, then begins it.
func (e *deliveryEnv) startTable(opts map[string]string) (string, string) {
	e.t.Helper()
	thread, id := e.makeTable(opts)
	if err := e.fake.Command(context.Background(), bottest.Alice, thread, "begin", nil); err != nil {
		e.t.Fatal(err)
	}
	return thread, id
}

// makeTable makes a table as Alice, which waits for its people, and
// returns its thread and ID.
func (e *deliveryEnv) makeTable(opts map[string]string) (string, string) {
	e.t.Helper()
	if err := e.fake.Command(context.Background(), bottest.Alice, "general", "start", opts); err != nil {
		e.t.Fatal(err)
	}
	threads := e.fake.Threads("general")
	if len(threads) == 0 {
		e.t.Fatal("no thread")
	}
	thread := threads[len(threads)-1]
	id, ok, err := e.db.Lookup(context.Background(), "fake:"+thread)
	if err != nil || !ok {
		e.t.Fatalf("no table in %s: %v", thread, err)
	}
	return thread, id
}

func (e *deliveryEnv) events(id string) []roundtable.Event {
	evs, err := e.db.Load(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return evs
}

func (e *deliveryEnv) ended(id string) bool {
	evs := e.events(id)
	return evs[len(evs)-1].Type() == "table_ended"
}

// runOut closes every phase at its deadline until the table ends.
func (e *deliveryEnv) runOut(id string) {
	e.t.Helper()
	for i := 0; !e.ended(id); i++ {
		if i > 100 {
			e.t.Fatal("the table does not end")
		}
		e.clock.Advance(phase)
	}
}

// checkDelivered waits until the thread shows every post the log implies
// and checks that each is there once, in the log's order.
func (e *deliveryEnv) checkDelivered(thread, id string) {
	e.t.Helper()
	want, err := bottest.ImpliedPosts(e.events(id))
	if err != nil {
		e.t.Fatal(err)
	}
	got := func() []string {
		var keys []string
		for _, p := range e.fake.Posts(thread) {
			if p.Key != "" {
				keys = append(keys, strings.TrimPrefix(p.Key, id+"/"))
			}
		}
		return keys
	}
	e.waitFor("every implied post", func() bool { return len(got()) >= len(want) })
	if !slices.Equal(got(), want) {
		e.t.Errorf("posts in the thread:\n%q\nwant, in order:\n%q", got(), want)
	}
	for _, p := range e.fake.Posts(thread) {
		if strings.HasPrefix(p.Key, id+"/r") && strings.HasSuffix(p.Key, "/open") && len(p.Controls) > 0 {
			e.t.Errorf("phase post %q kept its controls after its phase closed", p.Text)
		}
	}
}

func TestOutageDelaysPostsAndDeliversEachOnceInOrder(t *testing.T) {
	for _, lost := range []bool{false, true} {
		name := map[bool]string{false: "Refused", true: "AnswerLost"}[lost]
		t.Run(name, func(t *testing.T) {
			e := newDeliveryEnv(t)
			thread, id := e.startTable(map[string]string{"topic": "Outage", "rounds": "2"})
			e.waitFor("round 1 opens", func() bool { return len(e.fake.Posts(thread)) >= 3 }) // the intro, the start, the phase
			e.fake.LoseAnswers(lost)
			e.fake.SetOutage(true)
			e.runOut(id)
			e.waitFor("failed attempts", func() bool { return e.fake.Failures() >= 3 })
			if n := len(e.fake.Posts(thread)); !lost && n != 3 {
				t.Errorf("%d posts during a refusing outage, want the 3 before it", n)
			}
			e.fake.SetOutage(false)
			e.checkDelivered(thread, id)
		})
	}
}

func TestRestartDuringOutageDeliversEachOnce(t *testing.T) {
	e := newDeliveryEnv(t)
	thread, id := e.startTable(map[string]string{"topic": "Restart", "rounds": "2"})
	e.waitFor("round 1 opens", func() bool { return len(e.fake.Posts(thread)) >= 3 }) // the intro, the start, the phase
	e.fake.LoseAnswers(true)
	e.fake.SetOutage(true)
	e.runOut(id)
	e.waitFor("failed attempts", func() bool { return e.fake.Failures() >= 2 })
	e.stop()
	e.fake.SetOutage(false)
	e.start()
	e.checkDelivered(thread, id)
}

// A table waits for its people: a person who joins starts no clock; the
// organiser's begin opens round 1, and the phase waits for the person
// (the agent's instant answer does not close it).
func TestWaitingTableOpensWhenTheOrganiserBegins(t *testing.T) {
	e := newDeliveryEnv(t)
	thread, id := e.makeTable(map[string]string{"topic": "Organised", "rounds": "1", "join": "no"})
	e.waitFor("the intro", func() bool { return len(e.fake.Posts(thread)) >= 1 })
	intro := e.fake.Posts(thread)[0]
	if !strings.Contains(intro.Text, "It starts when the organiser presses **Start**") {
		t.Errorf("intro does not say when the table starts: %q", intro.Text)
	}
	e.clock.Advance(10 * phase)
	if err := e.fake.Click(context.Background(), bottest.Bob, thread, intro.ID, intro.Controls[0].ID); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the intro lists Bob", func() bool {
		return strings.Contains(e.fake.Posts(thread)[0].Text, "At the table: Scribe (bot: speaks, proposes, votes), Bob.")
	})
	e.clock.Advance(10 * phase)
	if n := countType(e.events(id), "phase_opened"); n != 0 {
		t.Fatalf("%d phases opened before the organiser began", n)
	}
	if err := e.fake.Command(context.Background(), bottest.Alice, thread, "begin", nil); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the agent's message", func() bool { return countType(e.events(id), "message_posted") == 1 })
	if n := countType(e.events(id), "phase_closed"); n != 0 {
		t.Errorf("the phase closed as everyone acted before Bob acted (%d closed)", n)
	}
	if err := e.fake.Say(context.Background(), bottest.Bob, thread, "hello"); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the message phase to close", func() bool { return countType(e.events(id), "phase_closed") == 1 })
}

func TestDamagedTableIsQuarantinedOthersGoOn(t *testing.T) {
	e := newDeliveryEnv(t)
	e.stop()
	ctx := context.Background()
	cfg := roundtable.Config{Task: roundtable.TaskSpec{Kind: "text", Topic: "Broken"}, Rule: vote.Plurality, Rounds: 1,
		Labels: map[string]string{"platform": "fake", "channel": "thBroken"}}
	now := e.clock.Now()
	evs := []roundtable.Event{
		{Table: "tbroken", Seq: 1, Time: now, Data: roundtable.TableCreated{Config: cfg}},
		{Table: "tbroken", Seq: 2, Time: now, Data: roundtable.DecisionMade{}}, // a decision in round 0
	}
	if err := e.db.Append(ctx, "tbroken", evs); err != nil {
		t.Fatal(err)
	}
	for range 2 { // a restart does not tell the channel again
		e.start()
		e.waitFor("the notice", func() bool { return len(e.fake.Posts("thBroken")) >= 1 })
		thread, id := e.startTable(map[string]string{"topic": "Healthy", "rounds": "1"})
		e.runOut(id)
		e.checkDelivered(thread, id)
		e.stop()
	}
	posts := e.fake.Posts("thBroken")
	if len(posts) != 1 || !strings.Contains(posts[0].Text, "paused") {
		t.Errorf("the damaged table's channel shows %+v, want one notice", posts)
	}
}

func countType(evs []roundtable.Event, typ string) int {
	n := 0
	for _, e := range evs {
		if e.Type() == typ {
			n++
		}
	}
	return n
}

func TestOrganiserStartsAgentsOnlyTableAndPhasesRunToDeadline(t *testing.T) {
	e := newDeliveryEnv(t)
	thread, id := e.makeTable(map[string]string{"topic": "Agents only", "rounds": "1", "join": "no"})
	e.waitFor("the intro", func() bool { return len(e.fake.Posts(thread)) >= 1 })
	intro := e.fake.Posts(thread)[0]
	var start string
	for _, c := range intro.Controls {
		if c.Label == "Start" {
			start = c.ID
		}
	}
	if start != bot.StartAction(id) {
		t.Fatalf("the intro of a waiting table has no Start button of its own: %+v", intro.Controls)
	}
	ctx := context.Background()
	if err := e.fake.Click(ctx, bottest.Bob, thread, intro.ID, start); err != nil {
		t.Fatal(err)
	}
	e.waitFor("Bob's refusal", func() bool { return len(e.fake.Private(bottest.Bob)) > 0 })
	if p := e.fake.Private(bottest.Bob); !strings.Contains(p[0].Text, "only whoever started") {
		t.Errorf("Bob, not the organiser, was told %q", p[0].Text)
	}
	if err := e.fake.Click(ctx, bottest.Alice, thread, intro.ID, start); err != nil {
		t.Fatal(err)
	}
	e.waitFor("the agent's message", func() bool { return countType(e.events(id), "message_posted") == 1 })
	if n := countType(e.events(id), "phase_closed"); n != 0 {
		t.Fatalf("a phase closed as everyone acted with no person seated (%d closed)", n)
	}
	e.clock.Advance(phase)
	if n := countType(e.events(id), "phase_closed"); n != 1 {
		t.Errorf("%d phases closed at the deadline, want 1", n)
	}
}

func TestRefusedPostIsDeliveredAfterTheNextStart(t *testing.T) {
	e := newDeliveryEnv(t)
	thread, id := e.startTable(map[string]string{"topic": "Refused", "rounds": "1"})
	e.waitFor("round 1 opens", func() bool { return len(e.fake.Posts(thread)) >= 3 }) // the intro, the start, the phase
	e.fake.RefuseForGood(true)
	e.fake.SetOutage(true)
	e.clock.Advance(phase) // the proposal phase opens; its prompt is refused
	e.waitFor("the refusal", func() bool { return e.fake.Failures() >= 1 })
	e.stop()
	e.fake.SetOutage(false)
	e.start()
	e.waitFor("the proposal prompt", func() bool {
		for _, p := range e.fake.Posts(thread) {
			if strings.HasPrefix(p.Text, "**Round 1 of 1: proposal phase**") {
				return true
			}
		}
		return false
	})
	if n := e.fake.Failures(); n > 3 {
		t.Errorf("a post refused for good was tried %d times before the restart", n)
	}
	e.runOut(id)
	e.checkDelivered(thread, id)
}

func TestPostsBeforeASnapshotAreDeliveredAfterARestart(t *testing.T) {
	e := newDeliveryEnv(t)
	thread, id := e.startTable(map[string]string{"topic": "Long", "rounds": "25"})    // past a snapshot even if the agent misses phases
	e.waitFor("round 1 opens", func() bool { return len(e.fake.Posts(thread)) >= 3 }) // the intro, the start, the phase
	e.fake.SetOutage(true)
	e.runOut(id)
	if n := len(e.events(id)); n <= roundtable.SnapshotEvery {
		t.Fatalf("%d events: the table is too short to have a snapshot", n)
	}
	e.stop()
	e.fake.SetOutage(false)
	e.start()
	e.checkDelivered(thread, id)
}

// loadCounter counts the whole-log reads of a store.
type loadCounter struct {
	*store.DB
	loads atomic.Int64
}

func (c *loadCounter) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	c.loads.Add(1)
	return c.DB.Load(ctx, table)
}

// pastSnapshot starts a table of 30 rounds, runs it past its first
// snapshot (it stays open) and waits until every post so far is out.
func (e *deliveryEnv) pastSnapshot() (thread, id string) {
	e.t.Helper()
	thread, id = e.startTable(map[string]string{"topic": "Long", "rounds": "30"})
	e.waitFor("round 1 opens", func() bool { return len(e.fake.Posts(thread)) >= 3 }) // the intro, the start, the phase
	for range 55 {
		e.clock.Advance(phase)
	}
	if n := len(e.events(id)); n <= roundtable.SnapshotEvery {
		e.t.Fatalf("%d events: the table is too short to have a snapshot", n)
	}
	e.waitFor("the posts so far", func() bool {
		keys, err := bottest.ImpliedPosts(e.events(id))
		return err == nil && len(e.fake.Posts(thread)) >= len(keys)
	})
	return thread, id
}

func TestDeliveredTableOpensFromItsSnapshot(t *testing.T) {
	e := newDeliveryEnv(t)
	thread, id := e.pastSnapshot()
	want := len(e.events(id))
	e.stop()

	counter := &loadCounter{DB: e.db}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- scribeService(counter, e.fake, e.clock, 2, time.Millisecond).Run(ctx) }()
	e.waitFor("the table resumed", func() bool {
		return e.fake.Command(ctx, bottest.Alice, thread, "status", nil) == nil && len(e.fake.Private(bottest.Alice)) > 0
	})
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := counter.loads.Load(); n != 0 {
		t.Errorf("resuming a delivered table of %d events read its whole log %d times, want 0 (its snapshot)", want, n)
	}
}
