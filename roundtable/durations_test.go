package roundtable_test

import (
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestNegativePhaseDurationsAreRefused(t *testing.T) {
	c := roundtable.Config{Rule: "plurality", Rounds: 1, Durations: roundtable.Durations{Vote: -time.Minute}}.WithDefaults()
	err := c.ValidateNew()
	if roundtable.ErrorCode(err) != roundtable.Invalid || !strings.Contains(err.Error(), "vote: the phase duration -1m0s is negative") {
		t.Errorf("a -1m vote: %v; want invalid naming the phase", err)
	}
	c.Durations.Vote = 0
	if err := c.ValidateNew(); err != nil {
		t.Errorf("no deadline (0): %v", err)
	}
}
