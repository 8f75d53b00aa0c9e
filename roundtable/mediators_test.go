package roundtable_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Only a proposal step may be the mediators'; the kept stop rule needs a
// vote to keep a decision by.
func TestMediatorStepsAndTheKeptStopAreChecked(t *testing.T) {
	priv := roundtable.Step{Phase: roundtable.PhasePrivate}
	prop := roundtable.Step{Phase: roundtable.PhaseProposal, Speakers: roundtable.SpeakMediators}
	vote := roundtable.Step{Phase: roundtable.PhaseVote}
	cases := []struct {
		p    roundtable.Protocol
		want string // "" for valid
	}{
		{roundtable.Protocol{Round: []roundtable.Step{priv, prop, vote}, Stop: roundtable.StopRule{Kind: roundtable.StopKept}}, ""},
		{roundtable.Protocol{Round: []roundtable.Step{priv, {Phase: roundtable.PhaseProposal}, {Phase: roundtable.PhaseVote, Speakers: roundtable.SpeakMediators}}},
			"protocol.round[2].speakers: everyone takes part in the vote phase"},
		{roundtable.Protocol{Round: []roundtable.Step{priv}, Stop: roundtable.StopRule{Kind: roundtable.StopKept}}, `protocol.stop: "kept" needs a vote phase`},
	}
	for i, c := range cases {
		err := c.p.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("case %d: %v", i, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("case %d: %v, want %q", i, err, c.want)
		}
	}
	if !(&roundtable.Protocol{Round: []roundtable.Step{priv, prop, vote}}).Mediated() || (&roundtable.Protocol{Round: []roundtable.Step{priv}}).Mediated() {
		t.Error("Mediated does not tell a schedule with mediators")
	}
	p := roundtable.Participant{Parts: nil}
	if p.Plays(roundtable.PartMediate) || !(roundtable.Participant{Parts: []roundtable.Part{roundtable.PartMediate}}).Mediates() {
		t.Error("a person with every part mediates, or a listed mediator does not")
	}
}

// A mediated table is refused without a mediator seated: nobody would
// write its candidates.
func TestAMediatedTableNeedsAMediator(t *testing.T) {
	pr := &roundtable.Protocol{Name: "mediation", Round: []roundtable.Step{{Phase: roundtable.PhasePrivate},
		{Phase: roundtable.PhaseProposal, Speakers: roundtable.SpeakMediators}, {Phase: roundtable.PhaseVote}}}
	cfg := roundtable.Config{Rule: vote.Schulze, Rounds: 1, Protocol: pr, Task: roundtable.TaskSpec{Kind: "text", Topic: "t"},
		Participants: []roundtable.Participant{{ID: "p", Name: "P", Kind: roundtable.Human}}}
	_, err := roundtable.Create(context.Background(), roundtabletest.NewMemStore(), roundtabletest.NewClock(time.Unix(0, 0)), roundtable.TextTask{Topic: "t"}, "m", cfg)
	if err == nil || !strings.Contains(err.Error(), `seat a bot that plays "mediates"`) {
		t.Errorf("created without a mediator: %v", err)
	}
}
