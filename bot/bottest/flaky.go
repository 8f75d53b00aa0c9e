package bottest

import (
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Dropper is a harness whose platform can drop the bot's event
// connection (Discord's gateway, Slack's Socket Mode) abruptly, as a
// network failure does; the adapter must reconnect by itself.
type Dropper interface {
	DropEvents() error
}

// RunFlakyTable runs a table of 2 rounds with the default agent, Alice
// and Bob. In the middle of round 1 the platform fails for a while: the
// bot's posts and edits meet 503s, dropped connections and lost answers,
// and (with a Dropper) its event connection drops, while the people go on
// writing, proposing and voting. Once the platform is back the table
// goes on to its end; then every post the log implies shows exactly once
// with every phase prompt closed, and every action the people took is
// in the log exactly once.
func RunFlakyTable(t *testing.T, h Harness) {
	o, ok := h.(LoseAnswerer)
	if !ok {
		t.Skip("the harness cannot make its platform fail")
	}
	e := newEnv(t, h, Options{Wait: 15 * time.Second})
	e.start(twoRounds("Flaky", ""))
	e.click(Bob, "**Flaky", "Join")
	e.private(Bob, "You joined")
	e.say(Alice, "said before the outage")

	o.SetOutage(true) // first 503s and connections dropped before the platform takes a post
	if d, ok := h.(Dropper); ok {
		if err := d.DropEvents(); err != nil {
			t.Fatalf("drop the event connection: %v", err)
		}
	}
	e.say(Bob, "said during the outage") // everyone has written: the phase closes
	e.waitEvents("phase_opened", 2)
	e.command(Alice, "propose", map[string]string{"text": "Alice's plan"})
	e.private(Alice, "Your proposal is recorded")
	e.command(Bob, "propose", map[string]string{"text": "Bob's plan"})
	e.waitEvents("phase_opened", 3) // everyone has proposed: the vote opens
	e.waitFor("refused requests", func() bool { return o.Failures() >= 4 })
	o.LoseAnswers(true) // then posts taken with their answers lost
	e.command(Alice, "vote", map[string]string{"ballot": "A"})
	e.private(Alice, "Your ballot for round 1 is recorded")
	e.waitFor("lost answers", func() bool { return o.Failures() >= 8 })

	o.SetOutage(false)
	o.LoseAnswers(false)
	e.post("**Round 1 of 2: vote")
	e.command(Bob, "vote", map[string]string{"ballot": "B"})
	e.post("**Round 1 result**")
	e.throughOutage(o, "Flaky", 0)
	e.actionsOnce()
}

// actionsOnce checks that every action of RunFlakyTable's people is in
// the log once.
func (e *env) actionsOnce() {
	e.t.Helper()
	s, err := roundtable.Replay(e.events())
	if err != nil {
		e.t.Fatal(err)
	}
	said := map[string]int{}
	for _, m := range s.Rounds[0].Messages {
		said[m.Text]++
	}
	for _, text := range []string{"said before the outage", "said during the outage"} {
		if said[text] != 1 {
			e.t.Errorf("%q is in the log %d times, want once", text, said[text])
		}
	}
	proposed := map[string]int{}
	for _, p := range s.Rounds[0].Proposals {
		proposed[p.Proposal.Text]++
	}
	for _, text := range []string{"Alice's plan", "Bob's plan"} {
		if proposed[text] != 1 {
			e.t.Errorf("proposal %q is in the log %d times, want once", text, proposed[text])
		}
	}
	if n := count(e.events(), "ballot_cast"); n < 3 {
		e.t.Errorf("%d ballots cast, want at least Alice's, Bob's and the agent's of round 1", n)
	}
	if tl := s.Rounds[0].Tally; tl == nil || tl.Counted != 3 {
		e.t.Errorf("round 1's tally %+v: want Alice's, Bob's and the agent's ballots counted once each", tl)
	}
}
