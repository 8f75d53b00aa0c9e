package bottest

import (
	"fmt"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// pairOf waits for round r's message step to open and returns the names
// of its drawn pair: the writer and the listener.
func (e *env) pairOf(r int) (writer, listener string) {
	e.t.Helper()
	names := e.opening(r, roundtable.PhaseMessage, func(o roundtable.PhaseOpened) []string {
		if len(o.Pair) == 2 {
			return o.Pair
		}
		return nil
	})
	return names[0], names[1]
}

// testDyadsTurns runs a dyads step with two people and an agent: a person
// who writes or reports out of turn is refused, privately, with the name
// of whoever has the turn, and nothing of the refused act is recorded.
// Three seats and one writer leave a person out of turn in at least one
// of the two phases, whoever is drawn.
func testDyadsTurns(t *testing.T, e *env) {
	e.startQuiet(map[string]string{"preset": DyadsPreset}, "**Vaccines dyads")
	e.click(Bob, "**Vaccines dyads", "Join")
	e.private(Bob, "You joined")
	e.begin()
	people := map[string]User{Alice.Name: Alice, Bob.Name: Bob}
	other := map[string]User{Alice.Name: Bob, Bob.Name: Alice}
	writer, listener := e.pairOf(1)
	refused := 0
	if u, ok := people[writer]; ok {
		prefix := "**Round 1 of 2: message"
		e.form(other[writer], prefix, "Write message", "Round 1 message", map[string]string{"text": "out of turn"})
		e.private(other[writer], fmt.Sprintf("only %s may act in the message phase of round 1", writer))
		refused++
		e.form(u, prefix, "Write message", "Round 1 message", map[string]string{"text": "my post to " + listener})
	}
	e.waitEvents("message_posted", 1)
	if u, ok := people[listener]; ok {
		surv := "**Round 1 of 2: survey"
		e.mustContain("survey post", e.post(surv).Text, "-2 to 2")
		e.form(other[listener], surv, "Answer", "Round 1 survey", map[string]string{"v0": "1"})
		e.private(other[listener], fmt.Sprintf("only %s may act in the survey phase of round 1", listener))
		refused++
		e.form(u, surv, "Answer", "Round 1 survey", map[string]string{"v0": "-1"})
	}
	e.waitEvents("survey_answered", 1)
	if refused == 0 {
		t.Fatalf("writer %s and listener %s left nobody out of turn", writer, listener)
	}
	s, err := roundtable.Replay(e.events())
	if err != nil {
		t.Fatal(err)
	}
	r1 := s.Rounds[0]
	if len(r1.Messages) != 1 || len(r1.Surveys) != 1 {
		t.Fatalf("round 1 recorded %d messages and %d reports, want the turn holders' one each", len(r1.Messages), len(r1.Surveys))
	}
	if p, _ := s.Participant(r1.Messages[0].From); p.Name != writer {
		t.Errorf("the message is %s's, want %s's", p.Name, writer)
	}
}
