package bottest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// People of the suite. Alice may manage the channel; Bob and Carol may not.
var (
	Alice = User{ID: "1001", Name: "Alice", Manager: true}
	Bob   = User{ID: "1002", Name: "Bob"}
	Carol = User{ID: "1003", Name: "Carol"}
)

// Options adapt the suite to an adapter.
type Options struct {
	// Agent builds the agents of bot participants; nil uses Scribe.
	Agent func(p roundtable.Participant, task roundtable.Task) (roundtable.Agent, error)
	// Wait bounds every wait for something to become visible (default 15s).
	Wait time.Duration
}

// Run runs the conformance suite against the harnesses newHarness makes.
func Run(t *testing.T, newHarness func(t *testing.T) Harness, opt Options) {
	if opt.Wait == 0 {
		opt.Wait = 15 * time.Second
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			e := newEnv(t, newHarness(t), opt)
			sc.run(t, e)
		})
	}
}

var scenarios = []struct {
	name string
	run  func(t *testing.T, e *env)
}{
	{"PeopleAndAgentCompleteTable", testPeopleAndAgent},
	{"BallotsPerRule", testBallotsPerRule},
	{"DeadlinesCloseEarlyAndLate", testDeadlines},
	{"OnlyParticipantsAndPermittedPeople", testPermissions},
	{"RestartLosesNothing", testRestart},
	{"ProtocolTurnsEnforced", testProtocolTurns},
	{"DyadsTurnsRefusedPrivately", testDyadsTurns},
	{"OutageDelaysPostsLosesNone", testOutage},
	{"ExportKeepsSealed", testExportKeepsSealed},
	{"ExportPseudonymisesEveryone", testExportPseudonymisesEveryone},
	{"OrganiserExtendsSecretTable", testExtendAndSecret},
	{"SecretBallotsUnlinkable", testSecretBallotsUnlinkable},
	{"OrganiserClosesPhaseNow", testCloseNow},
	{"ClassGathersThenStarts", testClassGathers},
}

// env is one scenario's running service.
type env struct {
	t      *testing.T
	h      Harness
	opt    Options
	clock  *Clock
	db     *store.DB
	cancel context.CancelFunc
	done   chan error
	thread string
}

func newEnv(t *testing.T, h Harness, opt Options) *env {
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, h: h, opt: opt, clock: NewClock(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)), db: db}
	if s, ok := h.(StoreSharer); ok {
		s.ShareStore(db)
	}
	e.startService()
	t.Cleanup(func() {
		e.stopService()
		if err := db.Check(); err != nil {
			t.Errorf("store check: %v", err)
		}
		_ = db.Close()
	})
	return e
}

// Service builds the service the suite runs; adapters' own tests reuse it.
func Service(p bot.Platform, db bot.Store, clock bot.Clock, agent func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error)) *bot.Service {
	if agent == nil {
		agent = func(p roundtable.Participant, _ roundtable.Task) (roundtable.Agent, error) { return Scribe{}, nil }
	}
	cfg := bot.Config{
		Defaults: roundtable.Config{Rule: vote.Plurality, Rounds: 2, Mode: roundtable.Sealed,
			Durations: roundtable.Durations{Message: 2 * time.Minute, Proposal: 2 * time.Minute, Vote: 2 * time.Minute}},
		Agents:        map[string]roundtable.Participant{"Scribe": {ID: "agent:scribe", Name: "Scribe", Kind: roundtable.Bot, Agent: "scribe"}},
		DefaultAgents: []string{"Scribe"},
		Policy:        bot.Policy{Manager: true},
		Presets:       protocolPresets(),
		RetryMin:      5 * time.Millisecond,
		RetryMax:      50 * time.Millisecond,
	}
	deps := bot.Deps{Store: db, Clock: clock, Agent: agent,
		Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			return roundtable.TextTask{Topic: spec.Topic}, nil
		}}
	return bot.New(cfg, deps, p)
}

func (e *env) startService() {
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel, e.done = cancel, make(chan error, 1)
	svc := Service(e.h.Platform(), e.db, e.clock, e.opt.Agent)
	go func() { e.done <- svc.Run(ctx) }()
}

func (e *env) stopService() {
	if e.cancel == nil {
		return
	}
	e.cancel()
	if err := <-e.done; err != nil {
		e.t.Errorf("service: %v", err)
	}
	e.cancel = nil
}

// waitFor waits until cond holds, woken by the harness's updates.
func (e *env) waitFor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.NewTimer(e.opt.Wait)
	defer deadline.Stop()
	for !cond() {
		select {
		case <-e.h.Updates():
		case <-deadline.C:
			e.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// do retries an action until the adapter is connected and takes it.
func (e *env) do(what string, f func(ctx context.Context) error) {
	e.t.Helper()
	ctx := context.Background()
	var err error
	e.waitFor(what, func() bool { err = f(ctx); return err == nil })
}

// start starts a table as Alice and returns its thread.
func (e *env) start(opts map[string]string) string {
	e.t.Helper()
	before := len(e.h.Threads(e.h.Channel()))
	e.do("start command", func(ctx context.Context) error { return e.h.Command(ctx, Alice, e.h.Channel(), "start", opts) })
	e.waitFor("the table's thread", func() bool { return len(e.h.Threads(e.h.Channel())) > before })
	threads := e.h.Threads(e.h.Channel())
	e.thread = threads[len(threads)-1]
	e.begin()
	e.post("**Round 1 of")
	return e.thread
}

// begin starts the waiting table in the thread as Alice, who started it,
// once its intro is out: /roundtable begin over the platform's own
// commands (a table waits for its people until then).
func (e *env) begin() {
	e.t.Helper()
	e.post("**")
	e.command(Alice, "begin", nil)
}

// post waits for a post in the table's thread whose text starts with prefix.
func (e *env) post(prefix string) Post {
	e.t.Helper()
	var found Post
	e.waitFor(fmt.Sprintf("a post starting %q", prefix), func() bool {
		for _, p := range e.h.Posts(e.thread) {
			if strings.HasPrefix(p.Text, prefix) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

// posts returns the thread's posts containing s.
func (e *env) posts(s string) []Post {
	var out []Post
	for _, p := range e.h.Posts(e.thread) {
		if strings.Contains(p.Text, s) {
			out = append(out, p)
		}
	}
	return out
}

// click presses the control labelled label on the post starting prefix.
func (e *env) click(u User, prefix, label string, values ...string) {
	e.t.Helper()
	p := e.post(prefix)
	for _, c := range p.Controls {
		if c.Label == label {
			e.do("click "+label, func(ctx context.Context) error { return e.h.Click(ctx, u, e.thread, p.ID, c.ID, values...) })
			return
		}
	}
	e.t.Fatalf("post %q has no control %q: %+v", prefix, label, p.Controls)
}

// private waits for u to be shown something containing s.
func (e *env) private(u User, s string) Private {
	e.t.Helper()
	var found Private
	e.waitFor(fmt.Sprintf("%s to be shown %q", u.Name, s), func() bool {
		for _, p := range e.h.Private(u) {
			if strings.Contains(p.Text, s) || (p.Form != nil && strings.Contains(p.Form.Title, s)) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

// form clicks a button that opens a form and submits it with fields.
func (e *env) form(u User, prefix, label, title string, fields map[string]string) {
	e.t.Helper()
	n := len(e.h.Private(u))
	e.click(u, prefix, label)
	e.waitFor(u.Name+"'s form "+title, func() bool {
		for _, p := range e.h.Private(u)[n:] {
			if p.Form != nil && strings.Contains(p.Form.Title, title) {
				return true
			}
		}
		return false
	})
	e.do("submit "+title, func(ctx context.Context) error { return e.h.Submit(ctx, u, fields) })
}

// events returns the stored log of the table in the thread.
func (e *env) events() []roundtable.Event {
	e.t.Helper()
	id, ok, err := e.db.Lookup(context.Background(), e.h.Platform().Name()+":"+e.thread)
	if err != nil || !ok {
		e.t.Fatalf("no table bound to thread %s: %v", e.thread, err)
	}
	evs, err := e.db.Load(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return evs
}

func count(evs []roundtable.Event, typ string) int {
	n := 0
	for _, ev := range evs {
		if ev.Type() == typ {
			n++
		}
	}
	return n
}
