package bottest

import (
	"testing"
)

// testCloseNow has the organiser close the open message phase with
// /roundtable close before its deadline (a participant may not): the
// phase closes at once, as its deadline would, and the next one opens.
func testCloseNow(t *testing.T, e *env) {
	e.start(map[string]string{"topic": "Close", "rounds": "1", "agents": "none"})
	e.click(Bob, "**Close", "Join")
	e.private(Bob, "You joined")
	e.command(Bob, "close", nil)
	e.private(Bob, "only whoever started this table")
	if n := count(e.events(), "phase_closed"); n != 0 {
		t.Fatalf("a participant closed the phase (%d phase_closed events)", n)
	}
	e.command(Alice, "close", nil)
	e.private(Alice, "You closed the message phase of round 1")
	e.post("**Round 1 of 1: proposal")
	if n := count(e.events(), "phase_closed"); n != 1 {
		t.Errorf("%d phase_closed events, want 1", n)
	}
	e.command(Alice, "propose", map[string]string{"text": "Lunch at noon"})
	e.private(Alice, "Your proposal is recorded")
	e.command(Alice, "close", nil) // Bob has not proposed: the phase would wait for him
	e.private(Alice, "You closed the proposal phase of round 1")
	e.post("**Round 1 of 1: vote")
}
