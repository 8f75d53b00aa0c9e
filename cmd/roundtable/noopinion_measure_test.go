package main

import (
	"context"
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// playWithFacilitator plays a protocol table of the given agents and the
// Facilitator to its end and returns its state.
func playWithFacilitator(t *testing.T, pr *roundtable.Protocol, rounds int, agents map[string]roundtable.Agent, stances map[string]string) *roundtable.State {
	t.Helper()
	agents["facilitator"] = facilitator.Agent{}
	var ps []roundtable.Participant
	for _, id := range []string{"a", "b", "facilitator"} {
		ps = append(ps, roundtable.Participant{ID: id, Name: id, Kind: roundtable.Bot, Stance: stances[id]})
	}
	return roundtabletest.PlayProtocol(t, pr, rounds, 5, ps, agents)
}

// The Facilitator's middle-of-the-scale answers are no view: in an echo
// chamber of personas that keep their stance nobody changed, the
// Facilitator included.
func TestChatroomMeasuresLeaveTheFacilitatorOut(t *testing.T) {
	pr := chatroom.Preset(protocol.Settings{Question: "Cities should ban cars."})
	s := playWithFacilitator(t, pr, 4, map[string]roundtable.Agent{"a": chatroom.Persona{}, "b": chatroom.Persona{}}, map[string]string{"a": "2", "b": "2"})
	if m := measureChatroom(nil, s); m.Scalars["changed_agents"] != 0 || m.Scalars["chat_changed"] != 0 {
		t.Errorf("figures %v: the Facilitator's neutral report counted as a change", m.Scalars)
	}
}

// A panel's sentiment and rankings are its judges': the Facilitator's
// zeros neither pull the mean sentiment toward 0 nor earn Borda points.
func TestPanelMeasuresLeaveTheFacilitatorOut(t *testing.T) {
	judge := func(vals ...float64) roundtable.Agent {
		return roundtable.AgentFunc(func(_ context.Context, v roundtable.View) (roundtable.Action, error) {
			if v.Phase == roundtable.PhaseSurvey {
				return roundtable.Report{Values: vals}, nil
			}
			return roundtable.Say{Text: "Ann is strong."}, nil
		})
	}
	pr := panel.Preset(protocol.Settings{Question: "fit?", Items: []string{"Ann", "Ben"}})
	s := playWithFacilitator(t, pr, 3, map[string]roundtable.Agent{"a": judge(0.8, -0.4), "b": judge(0.6, -0.2)}, nil)
	m := measurePanel(nil, s)
	if got := m.Series["S/Ann"]; len(got) == 0 || math.Abs(got[0]-0.7) > 1e-9 {
		t.Errorf("S/Ann %v, want the judges' mean 0.7", got)
	}
	if total := m.Scalars["borda/Ann"] + m.Scalars["borda/Ben"]; total != 2*(2+1) {
		t.Errorf("Borda points sum to %v, want 6 from two judges", total)
	}
}
