package bottest

import (
	"testing"
	"time"
)

// LoseAnswerer is a harness whose platform can take requests and lose
// their answers (HTTPOutage).
type LoseAnswerer interface {
	Outager
	LoseAnswers(lost bool)
}

// RunLostAnswers runs a table of 2 rounds (with the given agents option:
// "none", or "" for the default agent) while the harness's platform takes
// every other post and edit and drops the connection before its answer,
// from round 1 on; once that ends, every post the log implies is
// in the thread once: the bot sent again what had got through, and the
// platform (or the adapter) kept it from showing twice.
func RunLostAnswers(t *testing.T, h Harness, agents string) {
	o, ok := h.(LoseAnswerer)
	if !ok {
		t.Skip("the harness cannot lose answers")
	}
	e := newEnv(t, h, Options{Wait: 15 * time.Second})
	e.start(twoRounds("Lost", agents))
	o.LoseAnswers(true)
	o.SetOutage(true)
	e.throughOutage(o, "Lost", 6)
}

// Blinder is a harness whose platform can take posts while nothing tells
// the bot whether they got through (HTTPOutage.Blind).
type Blinder interface {
	Outager
	Blind(blind bool)
}

// RunLostBeforeRestart runs a table of 2 rounds with the default agent
// and Bob. When the first message phase closes, the platform takes the
// agent's revealed message but loses the answer, and every read of its
// history fails, so the bot cannot learn whether the post got through;
// the bot process then stops, its memory of the attempt with it, and a
// new one starts once the platform is back. The agent's message, and
// every other post the log implies, shows exactly once.
func RunLostBeforeRestart(t *testing.T, h Harness) {
	o, e := blindEnv(t, h, "")
	e.clock.Advance(phaseTime) // the message phase closes: the message is revealed
	e.restartBlind(o)
	if n := len(agentPosts(e.h.Posts(e.thread))); n != 1 {
		t.Fatalf("%d agent posts after the restart, want the 1 whose answer was lost", n)
	}
	e.throughOutage(o, "Unknown", 0)
}

// RunLostPromptBeforeRestart is RunLostBeforeRestart for the bot's own
// post of a phase's prompt, at a table without agents: its outcome is
// unknown, and its phase closes before the bot restarts, so the new
// process has both the post and its closing edit to deliver. The prompt
// shows once, and closed.
func RunLostPromptBeforeRestart(t *testing.T, h Harness) {
	o, e := blindEnv(t, h, "none")
	e.clock.Advance(phaseTime) // the message phase closes: the proposal prompt is posted
	e.waitFor("the proposal prompt taken", func() bool { return len(e.posts("proposal phase")) == 1 })
	e.clock.Advance(phaseTime) // the proposal phase closes before the restart
	e.waitEvents("phase_closed", 2)
	e.restartBlind(o)
	e.throughOutage(o, "Unknown", 0)
}

// blindEnv starts a table of 2 rounds with agents and Bob seated, then
// makes h's platform take posts without telling their outcome (Blind).
func blindEnv(t *testing.T, h Harness, agents string) (Blinder, *env) {
	o, ok := h.(Blinder)
	if !ok {
		t.Skip("the harness cannot hide a post's outcome")
	}
	e := newEnv(t, h, Options{Wait: 15 * time.Second})
	e.start(twoRounds("Unknown", agents))
	e.click(Bob, "**Unknown", "Join")
	e.private(Bob, "You joined")
	if agents != "none" {
		e.waitEvents("message_posted", 1) // the agent's sealed message
	}
	o.Blind(true)
	o.SetOutage(true)
	return o, e
}

// restartBlind waits until a post was taken and its outcome then looked
// for in vain, stops the bot, ends the outage and starts a new bot, which
// resumes the table.
func (e *env) restartBlind(o Blinder) {
	e.t.Helper()
	e.waitFor("a post taken, its outcome unknown", func() bool { return o.Failures() >= 3 })
	e.stopService()
	o.SetOutage(false)
	o.Blind(false)
	e.h.Restart()
	e.startService()
	e.command(Bob, "status", nil) // answered by the new process
	e.private(Bob, "At the table:")
}

// agentPosts are the posts agents made under their own names.
func agentPosts(posts []Post) []Post {
	var out []Post
	for _, p := range posts {
		if isAgentPost(p) {
			out = append(out, p)
		}
	}
	return out
}

// twoRounds are the options of a table of 2 rounds on topic, with the
// given agents option ("" for the default agent).
func twoRounds(topic, agents string) map[string]string {
	opts := map[string]string{"topic": topic, "rounds": "2"}
	if agents != "" {
		opts["agents"] = agents
	}
	return opts
}
