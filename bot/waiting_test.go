package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// A class gathers: the table is made, people join 45 and 90 fake seconds
// later, everyone sees who is in, and nothing starts (no phase, no
// clock) until the organiser starts it; someone who may not manage it is
// refused. Round 1's deadline runs from the start, not the creation.
func TestTableWaitsForItsPeopleUntilTheOrganiserStarts(t *testing.T) {
	e := newClassEnv(t)
	th := e.create(map[string]string{"topic": "Field trip?", "join": "no"})
	e.mustBeTold(bottest.Alice, "waiting for its people")
	e.clock.Advance(45 * time.Second)
	e.join(bottest.Bob, th)
	e.clock.Advance(45 * time.Second)
	e.command(bottest.Carol, th, "join", nil)
	e.waitFor("the intro to list who is in", func() bool {
		return strings.Contains(e.intro(th).Text, "At the table: Scribe (bot: speaks, proposes, votes), Bob, Carol.")
	})
	e.clock.Advance(10 * phase)
	if n := e.count(th, "phase_opened"); n != 0 {
		t.Fatalf("%d phases opened before the organiser started the table", n)
	}
	e.command(bottest.Bob, th, "begin", nil)
	e.mustBeTold(bottest.Bob, "only whoever started this table, or someone who may manage tables, can start it")
	if _, ok := e.started(th); ok {
		t.Fatal("Bob, who may not manage it, started the table")
	}
	startedAt := e.clock.Now()
	e.command(bottest.Alice, th, "begin", nil)
	e.mustBeTold(bottest.Alice, "The table has started: round 1 is open (its message phase closes in 2m0s)")
	ev, ok := e.started(th)
	if d, _ := ev.Data.(roundtable.TableStarted); !ok || d.Reason != "organiser" || ev.Actor != bot.ParticipantID("fake", bottest.Alice.ID) {
		t.Errorf("the start is recorded as %+v", ev)
	}
	if o := e.openings(th); len(o) != 1 || !o[0].Deadline.Equal(startedAt.Add(phase)) {
		t.Errorf("round 1 opened as %+v; want its deadline %s after the start", o, phase)
	}
	e.post(th, "**The table starts**: its organiser started it.")
	e.waitFor("the intro to offer no Start once started", func() bool {
		in := e.intro(th)
		return strings.Contains(in.Text, "The table started at "+startedAt.Format("15:04 MST, 2 Jan")+".") && len(in.Controls) == 2
	})
	e.command(bottest.Alice, th, "begin", nil)
	e.mustBeTold(bottest.Alice, "The table has already started.")
}

// At a chatroom, whose turns are drawn, the table draws among everyone
// seated when each phase opens, a late joiner included; and a person
// whose turn it is keeps the phase open to its deadline: the bot, which
// answers at once, does not close it.
func TestTurnsAreDrawnAmongEveryoneAndAPersonsTurnWaits(t *testing.T) {
	e := newClassEnv(t)
	th := e.create(map[string]string{"preset": "chatroom"})
	e.clock.Advance(40 * time.Second)
	e.join(bottest.Bob, th)
	e.command(bottest.Alice, th, "begin", nil)
	people := map[string]bottest.User{"fake:" + bottest.Alice.ID: bottest.Alice, "fake:" + bottest.Bob.ID: bottest.Bob, "fake:" + bottest.Carol.ID: bottest.Carol}
	personsTurns := 0
	for r := 1; r <= 3; r++ {
		var turn []string
		e.waitFor(fmt.Sprintf("round %d's message phase", r), func() bool {
			for _, o := range e.openings(th) {
				if o.Round == r && o.Phase == roundtable.PhaseMessage {
					turn = o.Turn
					return true
				}
			}
			return false
		})
		if s := e.state(th); !seated(s, turn) || len(turn) != 1 {
			t.Fatalf("round %d: the turn %v is not one of those seated", r, turn)
		}
		if u, ok := people[turn[0]]; ok {
			personsTurns++
			e.clock.Advance(phase - time.Second)
			if !e.isOpen(th, r, roundtable.PhaseMessage) {
				t.Fatalf("round %d: %s's turn closed before they acted or its deadline came", r, u.Name)
			}
			e.say(u, th, fmt.Sprintf("%s's turn in round %d", u.Name, r))
		}
		e.waitFor(fmt.Sprintf("round %d's message phase to close", r), func() bool { return !e.isOpen(th, r, roundtable.PhaseMessage) })
		if r == 1 {
			e.join(bottest.Carol, th) // late: drawn like anyone from round 2 on
		}
	}
	if personsTurns == 0 {
		t.Error("no person was drawn to speak in three rounds") // the last speaker is never drawn: a bot cannot speak twice
	}
	for _, o := range e.openings(th)[1:] {
		if len(o.Turn) > 0 && o.Turn[0] == "fake:"+bottest.Carol.ID {
			return // the late joiner was drawn
		}
	}
	t.Logf("Carol, seated from round 2, was not drawn (turns: %+v)", e.openings(th))
}

// A table set to start when its seats are taken starts by itself as the
// last one is, and says why.
func TestFullTableStartsByItself(t *testing.T) {
	e := newClassEnv(t)
	th := e.create(map[string]string{"topic": "Field trip?", "start": "full", "seats": "3"})
	if in := e.intro(th).Text; !strings.Contains(in, "It starts by itself when its 3 seats are taken (2 taken now)") {
		t.Errorf("the intro does not say how it starts: %q", in)
	}
	e.clock.Advance(time.Minute)
	if _, ok := e.started(th); ok {
		t.Fatal("the table started with a seat free")
	}
	e.join(bottest.Bob, th)
	ev, ok := e.started(th)
	if d, _ := ev.Data.(roundtable.TableStarted); !ok || d.Reason != "full" || ev.Actor != "" {
		t.Fatalf("the table did not start by itself when full: %+v", ev)
	}
	e.post(th, "**The table starts**: its seats are taken.")
	e.post(th, "**Round 1 of 1: message")
}

// A table set to start at a time starts then, even when the service was
// down at that time: the time is armed again from the log. A chatroom
// that lacks its person at the time starts when one joins.
func TestTimedTableStartsAfterARestart(t *testing.T) {
	e := newClassEnv(t)
	th := e.create(map[string]string{"topic": "Field trip?", "start_at": "10m"})
	chat := e.create(map[string]string{"preset": "chatroom", "join": "no", "start_at": "10m"})
	if in := e.intro(th).Text; !strings.Contains(in, "It starts by itself at 10:10 UTC, 24 Nov") {
		t.Errorf("the intro does not say when it starts: %q", in)
	}
	e.clock.Advance(5 * time.Minute)
	if _, ok := e.started(th); ok {
		t.Fatal("the table started early")
	}
	e.stop()
	e.clock.Advance(6 * time.Minute)
	e.start()
	e.waitFor("the timed table to start", func() bool { _, ok := e.started(th); return ok })
	if ev, _ := e.started(th); ev.Data.(roundtable.TableStarted).Reason != "at" {
		t.Errorf("started as %+v", ev)
	}
	e.post(th, "**Round 1 of 1: message")
	if _, ok := e.started(chat); ok {
		t.Fatal("the chatroom started with nobody at it")
	}
	e.join(bottest.Bob, chat)
	if ev, ok := e.started(chat); !ok || ev.Data.(roundtable.TableStarted).Reason != "at" {
		t.Fatalf("the chatroom whose time passed did not start when its person came: %+v", ev)
	}
}

// A protocol that needs people refuses to start without them, saying
// why; it starts once one is seated.
func TestProtocolThatNeedsPeopleRefusesToStartWithout(t *testing.T) {
	e := newClassEnv(t)
	th := e.create(map[string]string{"preset": "chatroom", "join": "no"})
	e.command(bottest.Alice, th, "begin", nil)
	e.mustBeTold(bottest.Alice, "This chatroom needs at least 1 person at the table before it starts, and nobody has joined yet: share the table's link, then start it again.")
	if _, ok := e.started(th); ok {
		t.Fatal("a chatroom started with bots alone")
	}
	o, err := e.tbls.Opening(context.Background(), th, bot.User{ID: bottest.Alice.ID})
	if err != nil || o.Status != roundtable.StatusCreated || o.Ready || !o.MayStart || o.People != 0 || o.Needs != 1 ||
		o.StartAction == "" || len(o.Seats) != 1 || o.Seats[0].Parts == nil {
		t.Errorf("the opening read by the organiser: %+v, %v", o, err)
	}
	e.join(bottest.Bob, th)
	if o, _ := e.tbls.Opening(context.Background(), th, bot.User{ID: bottest.Bob.ID}); o.MayStart || !o.Ready {
		t.Errorf("Bob reads the opening as %+v: he may not start it; it is ready", o)
	}
	e.command(bottest.Alice, th, "begin", nil)
	e.mustBeTold(bottest.Alice, "The table has started")
}

// Start options are checked when the table is made, naming the option.
func TestStartOptionsRefusedByName(t *testing.T) {
	e := newClassEnv(t)
	for opt, want := range map[string]string{
		"start:soon":              "start: unknown trigger",
		"seats:x":                 "seats: \"x\" is not a number of seats",
		"start_at:noon":           "start_at: \"noon\" is not a time",
		"start_at:-5m":            "start_at: \"-5m\" is not a delay after now",
		"seats:1":                 "seats: 1 seats are fewer than the 2 taken",
		"facilitator_votes:maybe": "facilitator_votes: \"maybe\" is not yes or no",
		"item1_document:CV":       "item1_title: the item with a document needs a title",
	} {
		k, v, _ := strings.Cut(opt, ":")
		e.command(bottest.Alice, "general", "start", map[string]string{"topic": "Field trip?", k: v})
		e.mustBeTold(bottest.Alice, want)
	}
	if n := len(e.fake.Threads("general")); n != 0 {
		t.Errorf("%d tables made with bad options", n)
	}
}
