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
	for i := 0; count(e.events(), "table_ended") == 0; i++ {
		if i > 20 {
			t.Fatal("the table does not end")
		}
		e.clock.Advance(phaseTime)
	}
	e.waitFor("lost answers", func() bool { return o.Failures() >= 6 })
	o.SetOutage(false)
	var missing, repeated []string
	e.waitFor("every implied post", func() bool {
		missing, repeated = CheckPosts(e.events(), "Lost", 2, e.h.Posts(e.thread))
		return len(missing) == 0
	})
	if len(repeated) > 0 {
		t.Errorf("posts shown more than once:\n%s", strings.Join(repeated, "\n"))
	}
}
