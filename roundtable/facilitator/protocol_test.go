package facilitator_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/offline"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// The facilitator answers every phase a protocol schedules, beside the
// protocol's own agents, with no failed action.
func TestFacilitatorPlaysEveryProtocol(t *testing.T) {
	for _, pr := range []*roundtable.Protocol{
		roundtable.Chatroom(roundtable.PresetOptions{Question: "Taxes should rise."}),
		roundtable.Questionnaire(roundtable.PresetOptions{Question: "Taxes should rise."}),
		roundtable.Dyads(roundtable.PresetOptions{Question: "The earth is round."}),
		roundtable.Dyads(roundtable.PresetOptions{Question: "The earth is round.", TwoWay: true}),
		roundtable.Dyads(roundtable.PresetOptions{Question: "The earth is round.", Control: roundtable.ControlNoInteraction}),
		roundtable.Panel(roundtable.PresetOptions{Items: []string{"Ann", "Ben"}, Tolerance: 1e-3}),
	} {
		t.Run(pr.Name+"-"+pr.Params["exchange"], func(t *testing.T) {
			peer := roundtable.Agent(offline.Persona{})
			if pr.Name == roundtable.ProtocolDyads {
				peer = offline.Dyad{Rule: offline.DeGroot}
			}
			ps := []roundtable.Participant{{ID: "f", Name: "Facilitator", Kind: roundtable.Bot}}
			agents := map[string]roundtable.Agent{"f": facilitator.Agent{}}
			for i := range 3 {
				id := fmt.Sprintf("a%d", i)
				ps = append(ps, roundtable.Participant{ID: id, Name: "Agent " + id, Kind: roundtable.Bot, Stance: fmt.Sprint(i - 1)})
				agents[id] = peer
			}
			if pr.Name == roundtable.ProtocolPanel {
				agents["a0"], agents["a1"], agents["a2"] = facilitator.Agent{}, facilitator.Agent{}, facilitator.Agent{}
			}
			s := roundtabletest.PlayProtocol(t, pr, 12, 3, ps, agents)
			acted := false
			for _, r := range s.Rounds {
				for _, m := range r.Messages {
					acted = acted || m.From == "f"
				}
				for _, a := range r.Surveys {
					acted = acted || a.By == "f"
				}
			}
			if !acted {
				t.Error("the facilitator never acted")
			}
		})
	}
}

func TestFacilitatorInvitesTheQuietAndReportsTheMiddle(t *testing.T) {
	v := roundtable.View{Phase: roundtable.PhaseMessage, Protocol: roundtable.ProtocolChatroom, Self: roundtable.Participant{ID: "f"},
		Participants: []roundtable.Participant{{ID: "f", Name: "Facilitator"}, {ID: "p", Name: "Pat"}, {ID: "s", Name: "Sam"}},
		History:      []roundtable.RoundRecord{{Round: 1, Messages: []roundtable.Message{{From: "p", Text: "hi"}}}},
		Scale:        roundtable.StanceScale("Taxes should rise.")}
	a, _ := facilitator.Agent{}.Act(context.Background(), v)
	if say := a.(roundtable.Say); !strings.Contains(say.Text, "Sam") || strings.Contains(say.Text, "Pat") {
		t.Errorf("invitation %q: want Sam, who has not spoken, and not Pat", say.Text)
	}
	v.Phase = roundtable.PhaseSurvey
	a, _ = facilitator.Agent{}.Act(context.Background(), v)
	if r := a.(roundtable.Report); len(r.Values) != 1 || r.Values[0] != 0 || r.Reason == "" {
		t.Errorf("report %+v, want the middle of the stance scale with a reason", r)
	}
}
