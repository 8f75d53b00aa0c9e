package acts_test

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
)

// handMade is a two-round table of three participants:
//
//	round 1: ann {Propose}; bob {Inform, Request}; cy {Inform}
//	round 2: ann {Accept};  bob {Propose};         cy {Accept, Evaluate}
func handMade() acts.Dialogue {
	return acts.Dialogue{Messages: []acts.Tagged{
		{Speaker: "ann", Round: 1, Acts: []string{acts.Propose}},
		{Speaker: "bob", Round: 1, Acts: []string{acts.Inform, acts.Request}},
		{Speaker: "cy", Round: 1, Acts: []string{acts.Inform}},
		{Speaker: "ann", Round: 2, Acts: []string{acts.Accept}},
		{Speaker: "bob", Round: 2, Acts: []string{acts.Propose}},
		{Speaker: "cy", Round: 2, Acts: []string{acts.Accept, acts.Evaluate}},
	}}
}

type edge struct {
	a, b string
	want float64
}

func checkEdges(t *testing.T, g acts.Graph, edges []edge) {
	t.Helper()
	for _, e := range edges {
		if got := g.P(e.a, e.b); got != e.want {
			t.Errorf("p(%s->%s) = %v, want %v", e.a, e.b, got, e.want)
		}
	}
}

// Eq. 1 by hand on handMade (DA(i,0) = {Start}, DA(i,3) = {End} for all
// three participants; a pair (i, j) needs j != i):
//
// Start: 3 holders. Start->Inform: Inform is held by bob and cy in round 1,
// each counted for the two others: 2+2 = 4, p = 4/3. Start->Propose: ann's,
// counted for bob and cy: p = 2/3.
//
// Round 1 -> 2. Inform: 2 holders (bob, cy). bob's Inform is followed by
// ann's Accept and cy's Accept and Evaluate; cy's by ann's Accept and bob's
// Propose. Inform->Accept = 2 (bob: ann, cy) + 1 (cy: ann) = 3, p = 3/2;
// Inform->Evaluate = 1, p = 1/2; Inform->Propose = 1 (cy: bob), p = 1/2.
// Request (bob only): ->Accept 2, p = 2; ->Evaluate 1, p = 1.
//
// Propose: 2 holders over the table (ann in round 1, bob in round 2).
// ann's is followed by bob's Propose and cy's Accept and Evaluate: 1 each;
// bob's by End of ann and of cy: 2. p(Propose->Propose) = 1/2,
// p(Propose->Accept) = 1/2, p(Propose->End) = 2/2 = 1.
//
// Round 2 -> End: Accept's 2 holders (ann, cy) each meet the End of the
// two others: 4/2 = 2. Evaluate (cy): 2/1 = 2.
func TestTransitionsEq1HandMade(t *testing.T) {
	g := acts.SpeakerPairs.Transitions(handMade())
	checkEdges(t, g, []edge{
		{acts.Start, acts.Inform, 4.0 / 3}, {acts.Start, acts.Propose, 2.0 / 3}, {acts.Start, acts.Request, 2.0 / 3},
		{acts.Start, acts.Accept, 0},
		{acts.Inform, acts.Accept, 1.5}, {acts.Inform, acts.Evaluate, 0.5}, {acts.Inform, acts.Propose, 0.5},
		{acts.Inform, acts.End, 0},
		{acts.Request, acts.Accept, 2}, {acts.Request, acts.Evaluate, 1},
		{acts.Propose, acts.Propose, 0.5}, {acts.Propose, acts.Accept, 0.5}, {acts.Propose, acts.Evaluate, 0.5},
		{acts.Propose, acts.End, 1},
		{acts.Accept, acts.End, 2}, {acts.Evaluate, acts.End, 2}, {acts.Decline, acts.End, 0},
	})
	if g.Count[acts.Start] != 3 || g.Count[acts.Propose] != 2 || g.Count[acts.Inform] != 2 {
		t.Errorf("denominators %v, want Start 3, Propose 2, Inform 2", g.Count)
	}
}

// The earlier rule on handMade: every act of a message is one occurrence,
// followed by B once when anyone else has B; Start and End once a table.
// Inform: bob's is followed by Accept and Evaluate, cy's by Accept and
// Propose: p(Inform->Accept) = 2/2 = 1, p(Inform->Evaluate) = 1/2.
// Start->Inform = 1 (one Start, Inform in round 1). Propose: ann's (round
// 1) and bob's (round 2, followed by the one End): p(Propose->End) = 1/2.
func TestTransitionsOccurrencesHandMade(t *testing.T) {
	g := acts.Occurrences.Transitions(handMade())
	checkEdges(t, g, []edge{
		{acts.Start, acts.Inform, 1}, {acts.Start, acts.Propose, 1},
		{acts.Inform, acts.Accept, 1}, {acts.Inform, acts.Evaluate, 0.5}, {acts.Inform, acts.Propose, 0.5},
		{acts.Request, acts.Accept, 1},
		{acts.Propose, acts.End, 0.5}, {acts.Accept, acts.End, 1},
	})
}

// DA(i, r) is a set: two messages of ann with Propose in one round are one
// holder; a participant who is silent in round 1 still holds Start and End.
// Speakers ann, bob, cy; round 1: ann {Propose} twice; round 2: bob
// {Accept}. Start: 3 holders, Start->Propose = 2 (bob, cy before ann),
// p = 2/3. Propose: 1 holder, ->Accept 1 (bob). Accept: 1 holder, ->End 2
// (ann's and cy's End).
func TestTransitionsEq1HoldersAreSets(t *testing.T) {
	g := acts.SpeakerPairs.Transitions(acts.Dialogue{
		Speakers: []string{"ann", "bob", "cy"},
		Messages: []acts.Tagged{
			{Speaker: "ann", Round: 1, Acts: []string{acts.Propose}},
			{Speaker: "ann", Round: 1, Acts: []string{acts.Propose}},
			{Speaker: "bob", Round: 2, Acts: []string{acts.Accept}},
		}})
	checkEdges(t, g, []edge{
		{acts.Start, acts.Propose, 2.0 / 3}, {acts.Propose, acts.Accept, 1}, {acts.Accept, acts.End, 2},
	})
}

// Rounds past the last message: End follows the last round played, so a
// round 2 without labelled messages leaves Propose (round 1) followed by
// nothing, and the End step has no act before it.
func TestTransitionsEndAfterRoundsPlayed(t *testing.T) {
	d := acts.Dialogue{Rounds: 2, Messages: []acts.Tagged{
		{Speaker: "ann", Round: 1, Acts: []string{acts.Propose}},
		{Speaker: "bob", Round: 1, Acts: []string{acts.Inform}},
	}}
	g := acts.SpeakerPairs.Transitions(d)
	if p := g.P(acts.Propose, acts.End); p != 0 {
		t.Errorf("p(Propose->End) = %v, want 0: round 2 lies between", p)
	}
	if n := len(acts.SpeakerPairs.Steps(d)); n != 3 {
		t.Errorf("%d steps, want 3 (Start->1, 1->2, 2->End)", n)
	}
}

// Over two tables the numerators and denominators add up, as Eq. 1 sums
// over tables before dividing: one table of two where ann proposes in
// round 1, one where ann informs. Start: 2+2 holders; Start->Propose: bob
// before ann's Propose, 1. p = 1/4.
func TestTransitionsAddUpOverTables(t *testing.T) {
	one := func(act string) acts.Dialogue {
		return acts.Dialogue{Speakers: []string{"ann", "bob"}, Messages: []acts.Tagged{{Speaker: "ann", Round: 1, Acts: []string{act}}}}
	}
	g := acts.SpeakerPairs.Transitions(one(acts.Propose))
	g.Add(acts.SpeakerPairs.Transitions(one(acts.Inform)))
	checkEdges(t, g, []edge{{acts.Start, acts.Propose, 0.25}, {acts.Start, acts.Inform, 0.25}, {acts.Propose, acts.End, 1}})
}

func TestParseCounting(t *testing.T) {
	for _, c := range []acts.Counting{acts.SpeakerPairs, acts.Occurrences} {
		if got, err := acts.ParseCounting(c.String()); err != nil || got != c {
			t.Errorf("ParseCounting(%q) = %v, %v", c, got, err)
		}
	}
	if _, err := acts.ParseCounting("pairs"); err == nil {
		t.Error("ParseCounting(pairs): no error")
	}
}
