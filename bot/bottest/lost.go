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
	opts := map[string]string{"topic": "Lost", "rounds": "2"}
	if agents != "" {
		opts["agents"] = agents
	}
	e.start(opts)
	o.LoseAnswers(true)
	o.SetOutage(true)
	e.throughOutage(o, "Lost", 6)
}
