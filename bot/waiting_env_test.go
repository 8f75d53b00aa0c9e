package bot_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/task"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// classEnv runs a service over the reference fake and a bbolt file with
// the bots a class meets (the Scribe, the Facilitator, a trader) and the
// presets of the protocols, on a fake clock: a class gathers, then its
// organiser starts the table.
type classEnv struct {
	t     *testing.T
	fake  *bottest.Fake
	db    *store.DB
	clock *bottest.Clock
	tbls  *bot.Tables
	stop  func()
}

// Dan is a fourth person.
var dan = bottest.User{ID: "1004", Name: "Dan"}

func newClassEnv(t *testing.T) *classEnv {
	db, err := store.Open(filepath.Join(t.TempDir(), "bot.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e := &classEnv{t: t, fake: bottest.NewFake(), db: db, clock: bottest.NewClock(time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC))}
	e.start()
	t.Cleanup(func() {
		e.stop()
		_ = db.Close()
	})
	return e
}

func classService(db bot.Store, fake *bottest.Fake, clock *bottest.Clock) *bot.Service {
	durations := roundtable.Durations{Message: phase, Proposal: phase, Vote: phase}
	text := roundtable.Config{Rule: vote.Plurality, Rounds: 1, Mode: roundtable.Sealed, Durations: durations}
	chat := text
	chat.Title, chat.Rounds = "Pineapple chat", 3
	chat.Task = roundtable.TaskSpec{Kind: "text", Topic: "Pineapple belongs on pizza."}
	chat.Protocol = chatroom.Preset(protocol.Settings{Question: "Pineapple belongs on pizza."})
	pan := text
	pan.Title, pan.Task = "Hiring panel", roundtable.TaskSpec{Kind: "text", Topic: "Whom do we hire?"}
	pan.Protocol = panel.Preset(protocol.Settings{Question: "How good a fit?", Items: []string{"the proposal"}})
	dy := text
	dy.Title, dy.Rounds, dy.Task = "Vaccines dyads", 2, roundtable.TaskSpec{Kind: "text", Topic: "Vaccines cause autism."}
	dy.Protocol = dyads.Preset(protocol.Settings{Question: "Vaccines cause autism."})
	econ := text
	econ.Title, econ.Rule, econ.Task = "Economy", vote.Majority, roundtable.TaskSpec{Kind: "exchange", Topic: "Share the goods", Params: map[string]string{"preset": "asymmetric"}}
	cfg := bot.Config{
		Defaults: text,
		Agents: map[string]roundtable.Participant{
			"Scribe":      {ID: "agent:scribe", Name: "Scribe", Kind: roundtable.Bot, Agent: "scribe"},
			"Facilitator": {ID: "agent:facilitator", Name: "Facilitator", Kind: roundtable.Bot, Agent: facilitator.Kind},
			"Trader 1":    {ID: "agent:trader-1", Name: "Trader 1", Kind: roundtable.Bot, Agent: "utility"},
		},
		DefaultAgents: []string{"Scribe"},
		Presets: map[string]bot.Preset{
			"chatroom": {Name: "chatroom", Config: chat, Agents: []string{"Scribe"}},
			"panel":    {Name: "panel", Config: pan, Agents: []string{"Scribe"}},
			"dyads":    {Name: "dyads", Config: dy, Agents: []string{"Scribe"}},
			"exchange": {Name: "exchange", Config: econ, Agents: []string{"Trader 1"}},
		},
		RetryMin: time.Millisecond, RetryMax: 4 * time.Millisecond,
	}
	deps := bot.Deps{Store: db, Clock: clock, Task: task.Live,
		Agent: func(p roundtable.Participant, tk roundtable.Task) (roundtable.Agent, error) {
			switch p.Agent {
			case facilitator.Kind:
				return facilitator.Agent{}, nil
			case "utility":
				x, ok := tk.(*exchange.Task)
				if !ok {
					return nil, fmt.Errorf("a trader plays the exchange economy only")
				}
				return &exchange.UtilityAgent{Task: x}, nil
			}
			return bottest.Scribe{}, nil
		}}
	return bot.New(cfg, deps, fake)
}

func (e *classEnv) start() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	svc := classService(e.db, e.fake, e.clock)
	e.tbls = svc.Tables(e.fake.Name())
	go func() { done <- svc.Run(ctx) }()
	e.waitFor("the service to connect", func() bool {
		return e.fake.Command(context.Background(), dan, "general", "help", nil) == nil
	})
	e.stop = func() {
		cancel()
		if err := <-done; err != nil {
			e.t.Errorf("service: %v", err)
		}
		e.stop = func() {}
	}
}

// waitFor waits for cond, woken by the fake's updates or by the store.
func (e *classEnv) waitFor(what string, cond func() bool) {
	e.t.Helper()
	waitOnFake(e.t, e.fake, what, cond)
}

// create makes a table as Alice and returns its thread; it waits for
// its people.
func (e *classEnv) create(opts map[string]string) string {
	e.t.Helper()
	before := len(e.fake.Threads("general"))
	e.command(bottest.Alice, "general", "start", opts)
	threads := e.fake.Threads("general")
	if len(threads) != before+1 {
		e.t.Fatalf("no table made: Alice was told %q", e.told(bottest.Alice))
	}
	return threads[len(threads)-1]
}

func (e *classEnv) command(u bottest.User, channel, name string, opts map[string]string) {
	e.t.Helper()
	if err := e.fake.Command(context.Background(), u, channel, name, opts); err != nil {
		e.t.Fatal(err)
	}
}

func (e *classEnv) say(u bottest.User, thread, text string) {
	e.t.Helper()
	if err := e.fake.Say(context.Background(), u, thread, text); err != nil {
		e.t.Fatal(err)
	}
}

// told is the last thing u was shown privately.
func (e *classEnv) told(u bottest.User) string {
	priv := e.fake.Private(u)
	if len(priv) == 0 {
		return ""
	}
	return priv[len(priv)-1].Text
}

// mustBeTold checks the last thing u was shown.
func (e *classEnv) mustBeTold(u bottest.User, want string) {
	e.t.Helper()
	if got := e.told(u); !strings.Contains(got, want) {
		e.t.Errorf("%s was told %q, want %q", u.Name, got, want)
	}
}

// events is the stored log of the table in thread.
func (e *classEnv) events(thread string) []roundtable.Event {
	e.t.Helper()
	id, ok, err := e.db.Lookup(context.Background(), "fake:"+thread)
	if err != nil || !ok {
		e.t.Fatalf("no table in %s: %v", thread, err)
	}
	evs, err := e.db.Load(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return evs
}

// state is the fold of the table's stored log.
func (e *classEnv) state(thread string) *roundtable.State {
	e.t.Helper()
	s, err := roundtable.Replay(e.events(thread))
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

// started is the table's TableStarted event, if it started.
func (e *classEnv) started(thread string) (roundtable.Event, bool) {
	for _, ev := range e.events(thread) {
		if _, ok := ev.Data.(roundtable.TableStarted); ok {
			return ev, true
		}
	}
	return roundtable.Event{}, false
}

// intro is the table's intro as it shows now.
func (e *classEnv) intro(thread string) bottest.Post {
	e.t.Helper()
	e.waitFor("the intro", func() bool { return len(e.fake.Posts(thread)) > 0 })
	return e.fake.Posts(thread)[0]
}

// join clicks the intro's Join as u.
func (e *classEnv) join(u bottest.User, thread string) {
	e.t.Helper()
	in := e.intro(thread)
	if err := e.fake.Click(context.Background(), u, thread, in.ID, in.Controls[0].ID); err != nil {
		e.t.Fatal(err)
	}
	e.mustBeTold(u, "You joined")
}

// post waits for a post in thread starting with prefix.
func (e *classEnv) post(thread, prefix string) bottest.Post {
	e.t.Helper()
	var found bottest.Post
	e.waitFor(fmt.Sprintf("a post starting %q", prefix), func() bool {
		for _, p := range e.fake.Posts(thread) {
			if strings.HasPrefix(p.Text, prefix) {
				found = p
				return true
			}
		}
		return false
	})
	return found
}

// count counts the events of a type.
func (e *classEnv) count(thread, typ string) int {
	return countType(e.events(thread), typ)
}

// openings are the table's PhaseOpened events.
func (e *classEnv) openings(thread string) []roundtable.PhaseOpened {
	var out []roundtable.PhaseOpened
	for _, ev := range e.events(thread) {
		if o, ok := ev.Data.(roundtable.PhaseOpened); ok {
			out = append(out, o)
		}
	}
	return out
}

// isOpen reports whether round r's phase p is open now.
func (e *classEnv) isOpen(thread string, r int, p roundtable.Phase) bool {
	s := e.state(thread)
	return s.Status == roundtable.StatusRunning && s.Round == r && s.Phase == p && !s.Closed
}

// seated reports whether the participant ids are all seated in s.
func seated(s *roundtable.State, ids []string) bool {
	for _, id := range ids {
		if !slices.ContainsFunc(s.Participants, func(p roundtable.Participant) bool { return p.ID == id }) {
			return false
		}
	}
	return true
}
