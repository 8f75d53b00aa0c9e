package bottest

import (
	"fmt"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// A live dyads table under the no-interaction control: nobody writes;
// each step one drawn participant, a person or the agent, reports, and
// the other person is refused privately with the holder's name.
func TestLiveDyadsNoInteractionControl(t *testing.T) {
	e := newEnv(t, NewFake(), Options{Wait: 15 * time.Second})
	e.startQuiet(map[string]string{"preset": DyadsControlPreset}, "**Vaccines, no interaction")
	e.click(Bob, "**Vaccines, no interaction", "Join")
	e.private(Bob, "You joined")
	e.begin()
	people := map[string]User{Alice.Name: Alice, Bob.Name: Bob}
	other := map[string]User{Alice.Name: Bob, Bob.Name: Alice}
	for r := 1; r <= 3; r++ {
		who := e.turnOf(r, roundtable.PhaseSurvey)
		t.Logf("round %d: %s reports", r, who)
		if u, ok := people[who]; ok {
			surv := fmt.Sprintf("**Round %d of 3: survey", r)
			e.mustContain("survey post", e.post(surv).Text, "It is the turn of **"+who+"**")
			e.form(other[who], surv, "Answer", fmt.Sprintf("Round %d survey", r), map[string]string{"v0": "2"})
			e.private(other[who], fmt.Sprintf("only %s may act in the survey phase of round %d", who, r))
			e.form(u, surv, "Answer", fmt.Sprintf("Round %d survey", r), map[string]string{"v0": "-1"})
		}
		e.waitEvents("survey_answered", r)
	}
	e.post("**The table has ended")
	s, err := roundtable.Replay(e.events())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Rounds {
		if len(r.Messages) != 0 || len(r.Surveys) != 1 {
			t.Errorf("round %d: %d messages, %d reports; want none and one", r.Round, len(r.Messages), len(r.Surveys))
		}
	}
}
