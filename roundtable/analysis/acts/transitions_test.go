package acts_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
)

// A hand-built two-round table:
//
//	round 1: ann Propose; bob Inform, Request
//	round 2: ann Accept; bob Propose
//
// Propose occurs twice (ann r1, bob r2). ann's r1 Propose is followed in
// r2 by bob's Propose (someone else), not by her own Accept; bob's r2
// Propose is followed by End. So p(Propose->Propose) = 1/2,
// p(Propose->Accept) = 0, p(Propose->End) = 1/2. bob's Inform (r1) is
// followed by ann's Accept: p(Inform->Accept) = 1, p(Inform->Propose) = 0.
// Start is followed by all three acts of round 1.
func TestTransitionsHandBuiltLog(t *testing.T) {
	g := acts.Transitions([]acts.Tagged{
		{Speaker: "ann", Round: 1, Acts: []string{acts.Propose}},
		{Speaker: "bob", Round: 1, Acts: []string{acts.Inform, acts.Request}},
		{Speaker: "ann", Round: 2, Acts: []string{acts.Accept}},
		{Speaker: "bob", Round: 2, Acts: []string{acts.Propose}},
	})
	for _, tt := range []struct {
		a, b string
		want float64
	}{
		{acts.Propose, acts.Propose, 0.5}, {acts.Propose, acts.Accept, 0}, {acts.Propose, acts.End, 0.5},
		{acts.Inform, acts.Accept, 1}, {acts.Inform, acts.Propose, 0}, {acts.Request, acts.Accept, 1},
		{acts.Accept, acts.End, 1}, {acts.Start, acts.Propose, 1}, {acts.Start, acts.Inform, 1},
		{acts.Start, acts.Accept, 0}, {acts.Decline, acts.End, 0},
	} {
		if got := g.P(tt.a, tt.b); got != tt.want {
			t.Errorf("p(%s->%s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// Over two tables p(Start->B) is the share of tables whose first round has B.
func TestTransitionsAddUpOverTables(t *testing.T) {
	g := acts.Transitions([]acts.Tagged{{Speaker: "a", Round: 1, Acts: []string{acts.Propose}}})
	g.Add(acts.Transitions([]acts.Tagged{{Speaker: "a", Round: 1, Acts: []string{acts.Inform}}}))
	if p := g.P(acts.Start, acts.Propose); p != 0.5 {
		t.Fatalf("p(Start->Propose) = %v, want 0.5", p)
	}
	if p := g.P(acts.Propose, acts.End); p != 1 {
		t.Fatalf("p(Propose->End) = %v, want 1", p)
	}
}
