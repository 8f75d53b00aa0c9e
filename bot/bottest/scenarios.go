package bottest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

const phaseTime = 2 * time.Minute

// waitEvents waits until the stored log has at least n events of typ.
func (e *env) waitEvents(typ string, n int) {
	e.t.Helper()
	deadline := time.Now().Add(e.opt.Wait)
	for count(e.events(), typ) < n {
		if time.Now().After(deadline) {
			e.t.Fatalf("timed out waiting for %d %s events (have %d)", n, typ, count(e.events(), typ))
		}
		select {
		case <-e.h.Updates():
		case <-time.After(20 * time.Millisecond): // agents write to the store without a platform update
		}
	}
}

func (e *env) command(u User, name string, opts map[string]string) {
	e.t.Helper()
	e.do("command "+name, func(ctx context.Context) error { return e.h.Command(ctx, u, e.thread, name, opts) })
}

func (e *env) say(u User, text string) {
	e.t.Helper()
	e.do("message", func(ctx context.Context) error { return e.h.Say(ctx, u, e.thread, text) })
}

func (e *env) mustContain(what string, got, want string) {
	e.t.Helper()
	if !strings.Contains(got, want) {
		e.t.Errorf("%s: %q does not contain %q", what, got, want)
	}
}

func testPeopleAndAgent(t *testing.T, e *env) {
	e.start(map[string]string{"topic": "Where do we eat?", "rule": "plurality", "rounds": "2"})
	e.click(Bob, "**Where do we eat?", "Join")
	e.private(Bob, "You joined")

	// Round 1: a message by form (sealed) and one typed in the thread.
	e.form(Alice, "**Round 1 of 2: message", "Write message", "Round 1 message", map[string]string{"text": "Pizza is quick"})
	e.private(Alice, "Your message is recorded")
	e.say(Bob, "I would like sushi")
	e.post("**Alice**: Pizza is quick")
	e.post("**Bob**: I would like sushi")
	e.waitFor("the agent's message under its own name", func() bool { return len(e.postsBy("Scribe")) > 0 })

	e.form(Alice, "**Round 1 of 2: proposal", "Propose", "Round 1 proposal", map[string]string{"text": "Pizza"})
	e.command(Bob, "propose", map[string]string{"text": "Sushi"})
	e.private(Bob, "Your proposal is recorded")
	vp := e.post("**Round 1 of 2: vote")
	for _, want := range []string{"**A**", "Pizza", "**B**", "Scribe's plan", "**C**", "Sushi"} {
		e.mustContain("vote post", vp.Text, want)
	}
	e.click(Bob, "**Round 1 of 2: vote", "Vote for one candidate", "C")
	e.private(Bob, "recorded: C")
	e.click(Bob, "**Round 1 of 2: vote", "Vote for one candidate", "A") // changed mind: the last ballot counts
	e.private(Bob, "recorded: A")
	stale := vp.Controls[0]
	e.command(Alice, "vote", map[string]string{"ballot": "a", "reason": "Pizza feeds everyone"}) // people may say why
	res := e.post("**Round 1 result**")
	e.mustContain("round 1 result", res.Text, "Accepted: **A**")

	// A control of round 1 used in round 2 is refused with the reason.
	e.do("stale click", func(ctx context.Context) error {
		return e.h.Click(ctx, Bob, e.thread, vp.ID, stale.ID, "B")
	})
	e.private(Bob, "that was for round 1")

	// Round 2 runs on deadlines: only the agent acts.
	e.post("**Round 2 of 2: message")
	e.waitEvents("message_posted", 4)
	e.clock.Advance(phaseTime)
	e.post("**Round 2 of 2: proposal")
	e.waitEvents("proposal_skipped", 1)
	e.clock.Advance(phaseTime)
	e.post("**Round 2 of 2: vote")
	e.command(Alice, "vote", map[string]string{"ballot": "B"})
	e.waitEvents("ballot_cast", 6)
	e.clock.Advance(phaseTime)
	e.mustContain("round 2 result", e.post("**Round 2 result**").Text, "No decision this round: A and B tied")
	end := e.post("**The table has ended")
	e.mustContain("end", end.Text, "Pizza")
	e.command(Bob, "vote", map[string]string{"ballot": "A"})
	e.private(Bob, "the table has ended")

	evs := e.events()
	for typ, want := range map[string]int{"message_posted": 4, "proposal_made": 3, "proposal_skipped": 1, "ballot_cast": 6, "decision_made": 2, "table_ended": 1} {
		if got := count(evs, typ); got != want {
			t.Errorf("%d %s events, want %d", got, typ, want)
		}
	}
	s, err := roundtable.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	if tl := s.Rounds[0].Tally; tl.Winner != "A" || tl.Counted != 3 {
		t.Errorf("round 1 tally %+v: want A from 3 ballots (Bob's changed ballot counted once)", tl)
	}
	if b := withReason(s.Rounds[0].Tally); b.Reason != "Pizza feeds everyone" || b.Choice != "A" {
		t.Errorf("round 1 ballots %+v: Alice's reason is not kept with her ballot", s.Rounds[0].Tally.Ballots)
	}
	if s.Output == nil || s.Output.Proposal.Text != "Pizza" {
		t.Errorf("output %+v, want Pizza", s.Output)
	}
	e.noDuplicatePosts()
}

// postsBy returns the thread's posts shown under name.
func (e *env) postsBy(name string) []Post {
	var out []Post
	for _, p := range e.h.Posts(e.thread) {
		if p.Author == name {
			out = append(out, p)
		}
	}
	return out
}

// noDuplicatePosts checks that no bot post appears twice.
func (e *env) noDuplicatePosts() {
	e.t.Helper()
	seen := map[string]bool{}
	for _, p := range e.h.Posts(e.thread) {
		if p.Author == "bot" && seen[p.Text] {
			e.t.Errorf("posted twice: %q", p.Text)
		}
		seen[p.Text] = true
	}
}

// twoProposals seats Bob, plays the message phase, and has Alice propose
// North (A) and Bob South (B).
func (e *env) twoProposals(rule string) {
	e.start(map[string]string{"topic": "Which way?", "rule": rule, "rounds": "1", "agents": "none"})
	e.click(Bob, "**Which way?", "Join")
	e.private(Bob, "You joined")
	e.say(Alice, "north is sunny")
	e.say(Bob, "south is warm")
	e.post("**Round 1 of 1: proposal")
	e.command(Alice, "propose", map[string]string{"text": "North"})
	e.command(Bob, "propose", map[string]string{"text": "South"})
	e.post("**Round 1 of 1: vote")
}

func testBallotsPerRule(t *testing.T, e *env) {
	type ballot struct {
		u      User
		fields map[string]string
		err    string // an expected refusal
	}
	cases := []struct {
		rule    string
		ballots []ballot
		winner  string
	}{
		{"rated", []ballot{{Alice, map[string]string{"A": "6", "B": "1"}, "out of range"}, {Alice, map[string]string{"A": "5", "B": "2", "reason": "A is closer"}, ""}, {Bob, map[string]string{"A": "2", "B": "3"}, ""}}, "A"},
		{"ranked", []ballot{{Alice, map[string]string{"rank1": "A", "rank2": "A"}, "twice"}, {Alice, map[string]string{"rank1": "B", "rank2": "A"}, ""}, {Bob, map[string]string{"rank1": "B"}, ""}}, "B"},
		{"cumulative", []ballot{{Alice, map[string]string{"A": "3"}, "exceeds"}, {Alice, map[string]string{"A": "2"}, ""}, {Bob, map[string]string{"A": "1", "B": "1"}, ""}}, "A"},
		{"borda", []ballot{{Alice, map[string]string{"rank1": "B", "rank2": "A"}, ""}, {Bob, map[string]string{"rank1": "B", "rank2": "A"}, ""}}, "B"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			e.t = t
			e.twoProposals(c.rule)
			for _, b := range c.ballots {
				n := len(e.h.Private(b.u))
				e.form(b.u, "**Round 1 of 1: vote", "Fill in your ballot", "ballot", b.fields)
				want := "is recorded"
				if b.err != "" {
					want = b.err
				}
				e.waitFor(b.u.Name+" sees "+want, func() bool {
					for _, p := range e.h.Private(b.u)[n:] {
						if strings.Contains(p.Text, want) {
							return true
						}
					}
					return false
				})
			}
			e.mustContain(c.rule+" result", e.post("**Round 1 result**").Text, "Accepted: **"+c.winner+"**")
			if s, err := roundtable.Replay(e.events()); c.rule == "rated" && (err != nil || withReason(s.Rounds[0].Tally).Reason != "A is closer") {
				t.Errorf("the rated ballot form's reason is not kept with the ballot (%v)", err)
			}
		})
	}
	t.Run("approval", func(t *testing.T) {
		e.t = t
		e.twoProposals("approval")
		e.click(Alice, "**Round 1 of 1: vote", "Approve any number of candidates", "A", "B")
		e.click(Bob, "**Round 1 of 1: vote", "Approve any number of candidates", "B")
		e.mustContain("approval result", e.post("**Round 1 result**").Text, "Accepted: **B**")
	})
}

func testDeadlines(t *testing.T, e *env) {
	e.start(map[string]string{"topic": "Deadlines", "rounds": "2", "agents": "none"})
	e.clock.Advance(phaseTime) // nobody wrote: the deadline closes the phase
	e.post("**Round 1 of 2: proposal")
	e.command(Alice, "vote", map[string]string{"ballot": "A"})
	e.private(Alice, "not the vote phase")
	e.clock.Advance(phaseTime)
	e.mustContain("empty round", e.post("**Round 1 result**").Text, "nothing was proposed yet")
	e.post("**Round 2 of 2: message")
	e.command(Alice, "propose", map[string]string{"text": "too early"})
	e.private(Alice, "not the proposal phase")
	e.say(Alice, "everyone has spoken") // the only participant: the phase closes at once
	e.post("**Round 2 of 2: proposal")
	e.command(Alice, "propose", map[string]string{"text": "Late but fine"})
	e.command(Alice, "vote", map[string]string{"ballot": "A"})
	e.mustContain("round 2", e.post("**Round 2 result**").Text, "Accepted: **A**")
	e.post("**The table has ended")
}

func testPermissions(t *testing.T, e *env) {
	e.do("start refused", func(ctx context.Context) error {
		return e.h.Command(ctx, Carol, e.h.Channel(), "start", map[string]string{"topic": "Carol's table"})
	})
	e.private(Carol, "may not start tables")
	e.start(map[string]string{"topic": "Rules", "rounds": "1", "agents": "none"})
	e.command(Carol, "propose", map[string]string{"text": "x"})
	e.private(Carol, "only participants")
	e.click(Bob, "**Rules", "Join")
	e.private(Bob, "You joined")
	e.command(Bob, "stop", nil)
	e.private(Bob, "only whoever started this table")
	e.command(Alice, "stop", nil)
	e.private(Alice, "The table is stopped")
	e.post("**The table has ended")
	if got := count(e.events(), "table_ended"); got != 1 {
		t.Errorf("%d table_ended events, want 1", got)
	}
}

func testRestart(t *testing.T, e *env) {
	e.start(map[string]string{"topic": "Restart", "rounds": "1"})
	e.click(Bob, "**Restart", "Join")
	e.private(Bob, "You joined")
	e.say(Alice, "one")
	e.say(Bob, "two")
	e.post("**Round 1 of 1: proposal")
	e.command(Alice, "propose", map[string]string{"text": "Keep going"})
	e.command(Bob, "propose", map[string]string{"text": "Stop here"})
	e.post("**Round 1 of 1: vote")
	e.command(Alice, "vote", map[string]string{"ballot": "A"})
	e.waitEvents("ballot_cast", 2) // Alice and the agent

	e.stopService()
	e.h.Restart()
	e.startService()

	e.command(Bob, "status", nil) // answered by the new process
	e.private(Bob, "Waiting for: Bob")
	e.clock.Advance(phaseTime) // the re-armed deadline closes the vote
	res := e.post("**Round 1 result**")
	e.mustContain("result", res.Text, "Accepted: **A**")
	e.post("**The table has ended")
	s, err := roundtable.Replay(e.events())
	if err != nil {
		t.Fatal(err)
	}
	if tl := s.Rounds[0].Tally; tl.Counted != 2 {
		t.Errorf("tally %+v: want the 2 ballots cast before the restart", tl)
	}
	if n := len(e.posts("Round 1: vote phase")) + len(e.posts("Round 1 of 1: vote phase")); n != 1 {
		t.Errorf("%d posts of the vote phase, want 1", n)
	}
	e.noDuplicatePosts()
}

// withReason is the ballot of a tally that gives a reason.
func withReason(t *roundtable.Tally) vote.Ballot {
	if t != nil {
		for _, b := range t.Ballots {
			if b.Reason != "" {
				return b
			}
		}
	}
	return vote.Ballot{}
}
