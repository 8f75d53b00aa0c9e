package bottest

import (
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// testClassGathers gathers a class at a chatroom made with nobody seated:
// its organiser's start is refused while nobody has joined, saying why;
// Bob joins 45 s later and the intro lists him beside the bot's parts;
// someone who may not manage the table cannot start it; nothing opens,
// and no clock runs, until the organiser presses the intro's Start. Then
// the turn is drawn among those seated, and Bob's turn waits for him.
func testClassGathers(t *testing.T, e *env) {
	e.startQuiet(map[string]string{"preset": ChatroomPreset, "join": "no"}, "**Pineapple chat")
	e.command(Alice, "begin", nil)
	e.private(Alice, "This chatroom needs at least 1 person at the table before it starts, and nobody has joined yet")
	e.clock.Advance(45 * time.Second)
	e.click(Bob, "**Pineapple chat", "Join")
	e.private(Bob, "You joined")
	e.waitFor("the intro to list Bob", func() bool {
		return len(e.posts("At the table: Scribe (bot: speaks, judges), Bob.")) == 1
	})
	e.clock.Advance(10 * time.Minute)
	e.command(Bob, "begin", nil)
	e.private(Bob, "only whoever started this table") // the web names its organiser link
	if n := count(e.events(), "phase_opened"); n != 0 {
		t.Fatalf("%d phases opened before the organiser started the table", n)
	}
	e.click(Alice, "**Pineapple chat", "Start")
	e.private(Alice, "The table has started")
	e.post("**The table starts**: its organiser started it.")
	if who := e.turnOf(1, roundtable.PhaseMessage); who == Bob.Name {
		e.clock.Advance(2*time.Minute - time.Second)
		s, err := roundtable.Replay(e.events())
		if err != nil {
			t.Fatal(err)
		}
		if s.Round != 1 || s.Closed {
			t.Fatal("Bob's turn closed before he spoke or its deadline came")
		}
		e.form(Bob, "**Round 1 of 3: message", "Write message", "Round 1 message", map[string]string{"text": "I am here"})
	} else if who != "Scribe" {
		t.Fatalf("round 1's turn went to %q, who is not seated", who)
	}
	e.waitEvents("message_posted", 1)
	if !strings.Contains(e.post("**Pineapple chat").Text, "The table started at ") {
		t.Error("the intro does not say when the table started")
	}
}
