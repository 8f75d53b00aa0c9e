package bottest

import (
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
)

// The Facilitator takes the agent's seat at a live chatroom with two
// people: it speaks when drawn, writes its private note and answers the
// survey, so the table runs to its end like with any agent.
func TestFacilitatorAtALiveChatroom(t *testing.T) {
	e := newEnv(t, NewFake(), Options{Agent: func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) {
		return facilitator.Agent{}, nil
	}, Wait: 15 * time.Second})
	testProtocolTurns(t, e)
	s, err := roundtable.Replay(e.events())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Rounds {
		if len(r.Failures) != 0 {
			t.Errorf("round %d: failed actions %+v", r.Round, r.Failures)
		}
	}
}
