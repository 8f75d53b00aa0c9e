package web

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// The dashboard's ballots show each voter's reason beside the ballot, as
// the closed vote's tally holds them.
func TestDashboardBallotsShowReasons(t *testing.T) {
	evs := []roundtable.Event{{Data: roundtable.DecisionMade{Round: 1, Tally: roundtable.Tally{Ballots: []vote.Ballot{
		{Voter: "web:ann", Choice: "A", Reason: "It is cheaper."}, {Voter: "web:bob", Choice: "B"}}}}}}
	rows := ballots(evs, names{"web:ann": "Ann", "web:bob": "Bob"})
	if len(rows) != 2 || rows[0] != (ballotRow{Round: 1, Voter: "Ann", Ballot: "A", Reason: "It is cheaper."}) || rows[1].Reason != "" {
		t.Errorf("rows %+v", rows)
	}
}
