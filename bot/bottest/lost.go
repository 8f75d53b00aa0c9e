package bottest

import (
	"strings"
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
	opts := map[string]string{"topic": "Lost", "rounds": "2"}
	if agents != "" {
		opts["agents"] = agents
	}
	e.start(opts)
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
	o, ok := h.(Blinder)
	if !ok {
		t.Skip("the harness cannot hide a post's outcome")
	}
	e := newEnv(t, h, Options{Wait: 15 * time.Second})
	e.start(map[string]string{"topic": "Unknown", "rounds": "2"})
	e.click(Bob, "**Unknown", "Join")
	e.private(Bob, "You joined")
	e.waitEvents("message_posted", 1) // the agent's sealed message
	o.Blind(true)
	o.SetOutage(true)
	e.clock.Advance(phaseTime) // the message phase closes: the message is revealed
	e.waitFor("the agent's message taken, its outcome unknown", func() bool { return o.Failures() >= 3 })
	e.stopService()
	if n := len(agentPosts(e.h.Posts(e.thread))); n != 1 {
		t.Fatalf("%d agent posts before the restart, want the 1 whose answer was lost", n)
	}
	o.SetOutage(false)
	o.Blind(false)
	e.h.Restart()
	e.startService()
	e.post("**Round 1 of 2: proposal") // the new process resumed the table
	e.throughOutage(o, "Unknown", 0)
}

// agentPosts are the posts agents made under their own names.
func agentPosts(posts []Post) []Post {
	var out []Post
	for _, p := range posts {
		if p.Author != "bot" && !strings.HasPrefix(p.Text, "**") {
			out = append(out, p)
		}
	}
	return out
}
