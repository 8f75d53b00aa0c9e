package exchange

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
)

func TestMeasure(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	umax, best := e.UMax()
	equal := e.EqualSplit()
	greedy := Allocation{{100, 100, 100}, {0, 0, 0}, {0, 0, 0}}
	uEqual := e.Total(equal) / umax
	rounds := []RoundOutcome{
		{Proposals: []ProposalRecord{ // no decision yet: any utility > 0 is rational
			{Proposer: 0, Allocation: greedy},
			{Proposer: 1, Allocation: greedy}, // 0 for agent 2: not rational
		}},
		{Decision: equal, Proposals: []ProposalRecord{{Proposer: 2, Allocation: best}}},
		{Decision: equal, Proposals: []ProposalRecord{
			{Proposer: 0, Allocation: best, DecisionBefore: equal},  // better for agent 1
			{Proposer: 1, Allocation: equal, DecisionBefore: equal}, // same: not rational
		}},
		{Decision: best},
	}
	m := e.Measure(rounds)
	wantU := []float64{0, uEqual, uEqual, 1}
	for r, want := range wantU {
		if math.Abs(m.U[r]-want) > 1e-12 {
			t.Errorf("U[%d] = %v, want %v", r, m.U[r], want)
		}
	}
	if m.Proposals != 5 {
		t.Errorf("Proposals = %d, want 5", m.Proposals)
	}
	if want := 3.0 / 5; m.Rationality != want {
		t.Errorf("Rationality = %v, want %v", m.Rationality, want)
	}
	if want := 2.0 / 4; m.Rigidity != want { // round 1 (0 = U_0) and round 3
		t.Errorf("Rigidity = %v, want %v", m.Rigidity, want)
	}
	if math.Abs(m.Fairness-1) > 1e-9 {
		t.Errorf("Fairness = %v, want 1 at the symmetric optimum", m.Fairness)
	}
}

func TestMeasureEmptyAndUndecided(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	if m := e.Measure(nil); m.Rigidity != 0 || m.Fairness != 0 || m.Rationality != 0 || m.At(1) != 0 || m.AUC(10) != 0 {
		t.Errorf("Measure(nil) = %+v, want zeros", m)
	}
	m := e.Measure(make([]RoundOutcome, 4))
	if m.Rigidity != 1 || m.Fairness != 0 || m.Proposals != 0 || m.Rationality != 0 {
		t.Errorf("undecided table: %+v", m)
	}
	unfair := e.Measure([]RoundOutcome{{Decision: Allocation{{100, 100, 100}, {0, 0, 0}, {0, 0, 0}}}})
	if unfair.Fairness != 0 {
		t.Errorf("Fairness = %v with agents at 0, want 0", unfair.Fairness)
	}
}

func TestAtAndAUCCarryForward(t *testing.T) {
	m := Metrics{U: []float64{0, 0.5, 0.8}}
	tests := []struct {
		r    int
		want float64
	}{{0, 0}, {1, 0}, {2, 0.5}, {3, 0.8}, {10, 0.8}}
	for _, tt := range tests {
		if got := m.At(tt.r); got != tt.want {
			t.Errorf("At(%d) = %v, want %v", tt.r, got, tt.want)
		}
	}
	if got, want := m.AUC(3), 1.3; math.Abs(got-want) > 1e-12 {
		t.Errorf("AUC(3) = %v, want %v", got, want)
	}
	if got, want := m.AUC(5), 2.9; math.Abs(got-want) > 1e-12 {
		t.Errorf("AUC(5) = %v, want %v (last value carried forward)", got, want)
	}
	if got, want := m.MeanAUC(5), 0.58; math.Abs(got-want) > 1e-12 {
		t.Errorf("MeanAUC(5) = %v, want %v", got, want)
	}
	if m.MeanAUC(0) != 0 || m.AUC(0) != 0 {
		t.Errorf("AUC over no rounds is not 0")
	}
}

// TestRigidityCountsOnlyRoundsWithAVote: docs/protocol.md#exchange-economy: a table
// that stops in its proposal phase does not count that round.
func TestRigidityCountsOnlyRoundsWithAVote(t *testing.T) {
	e := mustNew(t, 3, Asymmetric)
	d := e.EqualSplit()
	rounds := []RoundOutcome{{Decision: d}, {Decision: d}, {Decision: d, NoVote: true}}
	if m := e.Measure(rounds); m.Rigidity != 0.5 {
		t.Errorf("rigidity %v, want 1/2: round 2 kept U, round 1 changed it, round 3 had no vote", m.Rigidity)
	}
}

// The task tells a chart a proposal's welfare, U/U_max, without the chart
// knowing the economy: the optimum scores 1, an equal split less, and a
// proposal that is no allocation cannot be scored.
func TestWelfareIsUOverUMax(t *testing.T) {
	task, err := NewTask(3, Asymmetric)
	if err != nil {
		t.Fatal(err)
	}
	_, best := task.Econ.UMax()
	score := func(a Allocation) (float64, bool) {
		raw, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		return task.Welfare(roundtable.Proposal{Data: raw})
	}
	if u, ok := score(best); !ok || math.Abs(u-1) > 1e-9 {
		t.Errorf("the optimum scores %v, %v; want 1", u, ok)
	}
	if u, ok := score(task.Econ.EqualSplit()); !ok || u <= 0 || u >= 1 {
		t.Errorf("an equal split scores %v, %v; want between 0 and 1", u, ok)
	}
	if u, ok := task.Welfare(roundtable.Proposal{Text: "soup"}); ok {
		t.Errorf("a text proposal scores %v", u)
	}
}
