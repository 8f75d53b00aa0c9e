package facilitator_test

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// The facilitator answers every phase a protocol schedules, beside the
// protocol's own agents, with no failed action.
func TestFacilitatorPlaysEveryProtocol(t *testing.T) {
	persona, dyad := roundtable.Agent(chatroom.Persona{}), roundtable.Agent(dyads.Dyad{Rule: dyads.DeGroot})
	for _, c := range []struct {
		pr   *roundtable.Protocol
		peer roundtable.Agent // nil: everyone is a facilitator (a panel's judges)
	}{
		{chatroom.Preset(protocol.Settings{Question: "Taxes should rise."}), persona},
		{questionnaire.Preset(protocol.Settings{Question: "Taxes should rise."}), persona},
		{dyads.Preset(protocol.Settings{Question: "The earth is round."}), dyad},
		{dyads.Preset(protocol.Settings{Question: "The earth is round.", TwoWay: true}), dyad},
		{dyads.Preset(protocol.Settings{Question: "The earth is round.", Control: dyads.ControlNoInteraction}), dyad},
		{panel.Preset(protocol.Settings{Items: []string{"Ann", "Ben"}, Tolerance: 1e-3}), nil},
	} {
		pr := c.pr
		t.Run(pr.Name+"-"+pr.Params["exchange"], func(t *testing.T) {
			ps := []roundtable.Participant{{ID: "f", Name: "Facilitator", Kind: roundtable.Bot}}
			agents := map[string]roundtable.Agent{"f": facilitator.Agent{}}
			for i := range 3 {
				id := fmt.Sprintf("a%d", i)
				ps = append(ps, roundtable.Participant{ID: id, Name: "Agent " + id, Kind: roundtable.Bot, Stance: fmt.Sprint(i - 1)})
				agents[id] = cmp.Or(c.peer, roundtable.Agent(facilitator.Agent{}))
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
	v := roundtable.View{Phase: roundtable.PhaseMessage, Protocol: "chatroom", Self: roundtable.Participant{ID: "f"},
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

// At a sealed table the messages of a phase come out together: the
// facilitator does not say it has not heard from people who speak in the
// same phase, only from those who do not.
func TestInvitationSparesThoseWhoSpeakInTheSameBatch(t *testing.T) {
	ps := []roundtable.Participant{{ID: "f", Name: "Facilitator"}, {ID: "a", Name: "Ann"}, {ID: "b", Name: "Ben"}, {ID: "c", Name: "Cy"}}
	base := roundtable.View{Phase: roundtable.PhaseMessage, Protocol: "chatroom", Self: ps[0], Participants: ps, Round: 1}
	for _, c := range []struct {
		name   string
		mode   roundtable.Mode
		turn   []string
		want   string
		absent string
	}{
		{"sealed, everyone speaks", roundtable.Sealed, nil, "Where do you each stand", "not heard"},
		{"sealed, two speak", roundtable.Sealed, []string{"f", "a", "b"}, "We have not heard yet from Cy:", "Ann"},
		{"live, everyone speaks", roundtable.Live, nil, "We have not heard yet from Ann, Ben and Cy:", ""},
	} {
		v := base
		v.Mode, v.Turn = c.mode, c.turn
		a, err := facilitator.Agent{}.Act(context.Background(), v)
		if err != nil {
			t.Fatal(err)
		}
		text := a.(roundtable.Say).Text
		if !strings.Contains(text, c.want) || (c.absent != "" && strings.Contains(text, c.absent)) {
			t.Errorf("%s: %q; want %q without %q", c.name, text, c.want, c.absent)
		}
	}
}
