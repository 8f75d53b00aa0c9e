package bottest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// testSecretBallotsUnlinkable plays two rounds of a table created with
// secret research ballots in which Carol votes in round 1 only, then runs
// the linking attack (roundtabletest.LinkBallots) on everything Bob gets:
// his export and, where the platform has them, his download and views.
// Nothing may tie a ballot to a person, and no ballot event may carry
// its actor; the organiser's export keeps the research labels the table
// announced.
func testSecretBallotsUnlinkable(t *testing.T, e *env) {
	e.start(map[string]string{"topic": "Secret vote", "rounds": "2", "agents": "none", "secret": "research"})
	e.mustContain("intro", e.post("**Secret vote").Text, "research labels (secret:research)")
	for _, u := range []User{Bob, Carol} {
		e.click(u, "**Secret vote", "Join")
		e.private(u, "You joined")
	}
	ballots := 0
	for r := 1; r <= 2; r++ {
		head := fmt.Sprintf("**Round %d of 2: ", r)
		e.clock.Advance(phaseTime) // nobody writes: the message phase closes
		e.post(head + "proposal")
		e.command(Alice, "propose", map[string]string{"text": "North"})
		e.command(Bob, "propose", map[string]string{"text": "South"})
		e.waitEvents("proposal_made", 2*r)
		e.clock.Advance(phaseTime)
		e.post(head + "vote")
		voters := []User{Alice, Bob, Carol}
		if r == 2 {
			voters = voters[:2] // Carol skips the vote, as everyone sees
		}
		for i, u := range voters {
			e.command(u, "vote", map[string]string{"ballot": string(rune('A' + i%2))})
		}
		ballots += len(voters)
		e.waitEvents("ballot_cast", ballots)
		if r == 2 {
			e.clock.Advance(phaseTime)
		}
		e.post(fmt.Sprintf("**Round %d result**", r))
	}
	e.post("**The table has ended")
	for name, text := range e.exports(Bob, nil) {
		if strings.Contains(text, "voter-") {
			t.Errorf("Bob's %s labels ballots:\n%s", name, text)
		}
		if strings.HasPrefix(name, "view:") {
			continue
		}
		evs, err := decodeLog(text)
		if err != nil {
			t.Fatalf("Bob's %s: %v", name, err)
		}
		for _, ev := range evs {
			if w, ok := ev.Data.(roundtable.Withheld); ok && w.Phase == roundtable.PhaseVote && ev.Actor != "" {
				t.Errorf("Bob's %s: a hidden ballot of round %d carries its actor %s", name, w.Round, ev.Actor)
			}
		}
		if links := roundtabletest.LinkBallots(evs); len(links) > 0 {
			t.Errorf("Bob's %s ties ballots to people (label: person): %v", name, links)
		}
	}
	if log := e.export(Alice, nil); !strings.Contains(log, `"voter":"voter-`) {
		t.Errorf("the organiser's research export lacks the voter labels the table announced:\n%s", log)
	}
}

// decodeLog reads a JSON Lines export.
func decodeLog(text string) ([]roundtable.Event, error) {
	var out []roundtable.Event
	for i, line := range strings.Split(strings.TrimSpace(text), "\n") {
		var ev roundtable.Event
		if err := ev.UnmarshalJSON([]byte(line)); err != nil {
			return nil, fmt.Errorf("line %d: %w", i+1, err)
		}
		out = append(out, ev)
	}
	return out, nil
}
