package experiment

import (
	"slices"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
)

// Under consecutive agreements a table stops in the proposal phase of its
// last round: that round has no vote, and the decision of the round before
// is still in force (Figure 2(b) counted it as undecided, and carried that
// into every later round).
func TestOutcomesKeepTheDecisionInForceWithoutAVote(t *testing.T) {
	x := &roundtable.Candidate{ID: "c1", Proposal: roundtable.Proposal{Text: "x"}}
	s := &roundtable.State{Config: roundtable.Config{Rounds: 4, EarlyStop: roundtable.StopConsecutive},
		Rounds: []roundtable.RoundRecord{
			{Round: 1, Tally: &roundtable.Tally{Reason: "no majority"}},
			{Round: 2, Tally: &roundtable.Tally{Winner: "c1"}, Decision: x},
			{Round: 3}, // stopped after its proposals: nobody proposed anything new
		}}
	var tb report.Table
	outcomes(s, &tb)
	if want := []bool{false, true, true}; !slices.Equal(tb.Decided, want) {
		t.Errorf("decided %v, want %v", tb.Decided, want)
	}
	if want := []bool{false, true, false}; !slices.Equal(tb.Agreed, want) {
		t.Errorf("agreed %v, want %v", tb.Agreed, want)
	}
}
