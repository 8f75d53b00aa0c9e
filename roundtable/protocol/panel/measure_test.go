package panel_test

import (
	"context"
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
)

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
	var ps []roundtable.Participant
	for _, id := range []string{"a", "b", "facilitator"} {
		ps = append(ps, roundtable.Participant{ID: id, Name: id, Kind: roundtable.Bot})
	}
	agents := map[string]roundtable.Agent{"a": judge(0.8, -0.4), "b": judge(0.6, -0.2), "facilitator": facilitator.Agent{}}
	s := roundtabletest.PlayProtocol(t, pr, 3, 5, ps, agents)
	h, _ := protocol.Lookup(panel.Name)
	measure, err := h.(protocol.Headless).Measure(protocol.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	m := measure(nil, s)
	if got := m.Series["S/Ann"]; len(got) == 0 || math.Abs(got[0]-0.7) > 1e-9 {
		t.Errorf("S/Ann %v, want the judges' mean 0.7", got)
	}
	if total := m.Scalars["borda/Ann"] + m.Scalars["borda/Ben"]; total != 2*(2+1) {
		t.Errorf("Borda points sum to %v, want 6 from two judges", total)
	}
}
