package chatroom_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

// The Facilitator's middle-of-the-scale answers are no view: in an echo
// chamber of personas that keep their stance nobody changed, the
// Facilitator included.
func TestChatroomMeasuresLeaveTheFacilitatorOut(t *testing.T) {
	pr := chatroom.Preset(protocol.Settings{Question: "Cities should ban cars."})
	var ps []roundtable.Participant
	for _, id := range []string{"a", "b", "facilitator"} {
		ps = append(ps, roundtable.Participant{ID: id, Name: id, Kind: roundtable.Bot, Stance: map[string]string{"a": "2", "b": "2"}[id]})
	}
	agents := map[string]roundtable.Agent{"a": chatroom.Persona{}, "b": chatroom.Persona{}, "facilitator": facilitator.Agent{}}
	s := roundtabletest.PlayProtocol(t, pr, 4, 5, ps, agents)
	if m := chatroom.Measure(s); m.Scalars["changed_agents"] != 0 || m.Scalars["chat_changed"] != 0 {
		t.Errorf("figures %v: the Facilitator's neutral report counted as a change", m.Scalars)
	}
}
