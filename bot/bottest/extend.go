package bottest

import (
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// testExtendAndSecret starts a secret-ballot table, has the organiser
// extend its message phase (a participant may not), and checks that the
// old deadline no longer closes the phase, the warning comes a minute
// before the new one, and the new one closes it.
func testExtendAndSecret(t *testing.T, e *env) {
	e.start(map[string]string{"topic": "Extend", "rounds": "1", "agents": "none", "secret": "yes"})
	e.mustContain("intro", e.post("**Extend").Text, "Ballots are secret")
	e.click(Bob, "**Extend", "Join")
	e.private(Bob, "You joined")
	e.command(Bob, "extend", map[string]string{"by": "3m"})
	e.private(Bob, "only whoever started this table")
	e.command(Alice, "extend", map[string]string{"by": "soon"})
	e.private(Alice, `"soon" is not a duration`)
	e.command(Alice, "extend", map[string]string{"by": "3m"})
	e.private(Alice, "now closes in 5m0s")
	e.mustContain("extension post", e.post("The organiser extended").Text, "by 3m0s")
	e.clock.Advance(phaseTime) // the old deadline: timers run before Advance returns
	if n := count(e.events(), "phase_closed"); n != 0 {
		t.Fatalf("the old deadline closed the phase (%d phase_closed events)", n)
	}
	e.clock.Advance(2 * time.Minute) // a minute before the new deadline
	e.mustContain("warning", e.post("**One minute left**").Text, "in the message phase of round 1. Waiting for: ")
	if n := count(e.events(), "phase_closed"); n != 0 {
		t.Fatalf("the phase closed a minute early (%d phase_closed events)", n)
	}
	e.clock.Advance(time.Minute)
	e.post("**Round 1 of 1: proposal")
	evs := e.events()
	if n := count(evs, "phase_extended"); n != 1 {
		t.Errorf("%d phase_extended events, want 1", n)
	}
	cfg := evs[0].Data.(roundtable.TableCreated).Config
	if !cfg.Secret.Ballots || len(cfg.Secret.Key) != 32 {
		t.Errorf("secret %+v: want secret ballots and a 16-byte pseudonym key", cfg.Secret.Public())
	}
}
