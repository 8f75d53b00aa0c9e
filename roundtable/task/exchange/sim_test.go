package exchange

import (
	"fmt"
	"testing"
)

// table plays a table of utility agents under a voting rule the way the
// RoundTable protocol does: messages, proposals, then a vote on the distinct
// proposals plus the decision in force. A tie or a failed vote defers.
type table struct {
	e      *Economy
	agents []Strategy
	rule   string
}

func newTable(t testing.TB, preset Preset, k int, seed int64, rule string) *table {
	t.Helper()
	e, err := New(k, preset)
	if err != nil {
		t.Fatal(err)
	}
	tb := &table{e: e, rule: rule}
	for i := range k {
		tb.agents = append(tb.agents, Strategy{Economy: e, Self: i, Seed: seed})
	}
	return tb
}

// play runs the table and returns every round's outcome.
func (tb *table) play(t testing.TB, rounds int) []RoundOutcome {
	t.Helper()
	var decision Allocation
	var out []RoundOutcome
	for r := 1; r <= rounds; r++ {
		known := tb.listen(r)
		var round RoundOutcome
		var candidates []Allocation
		seen := map[string]bool{}
		for i, s := range tb.agents {
			p := s.Propose(r, rounds, known[i], decision)
			if err := tb.e.Validate(p); err != nil {
				t.Fatalf("round %d agent %d proposed an invalid allocation: %v", r, i, err)
			}
			round.Proposals = append(round.Proposals, ProposalRecord{Proposer: i, Allocation: p, DecisionBefore: decision})
			if key := tb.e.Canonical(p); !seen[key] {
				seen[key] = true
				candidates = append(candidates, p)
			}
		}
		if decision != nil && !seen[tb.e.Canonical(decision)] {
			candidates = append(candidates, decision)
		}
		if w := tb.vote(candidates, decision); w >= 0 {
			decision = candidates[w]
		}
		round.Decision = decision
		out = append(out, round)
	}
	return out
}

// listen has every agent state its weights and every other agent parse them.
func (tb *table) listen(round int) []map[int][]float64 {
	known := make([]map[int][]float64, len(tb.agents))
	for i := range known {
		known[i] = map[int][]float64{}
	}
	for j, s := range tb.agents {
		msg := s.Statement(round)
		for i := range tb.agents {
			if w, ok := ParseStatement(msg, tb.e.K); ok && i != j {
				known[i][j] = w
			}
		}
	}
	return known
}

// vote returns the winning candidate index or -1.
func (tb *table) vote(candidates []Allocation, decision Allocation) int {
	n := len(candidates)
	score := make([]float64, n)
	for _, s := range tb.agents {
		switch tb.rule {
		case "majority", "unanimous", "plurality":
			if c := s.Choose(candidates, decision); c >= 0 {
				score[c]++
			}
		case "rated":
			for c, x := range s.Scores(candidates) {
				score[c] += float64(x)
			}
		case "ranked":
			for pos, c := range s.Ranking(candidates) {
				score[c] += 1 / float64(pos+1)
			}
		case "cumulative":
			for c, x := range s.Points(candidates) {
				score[c] += float64(x)
			}
		}
	}
	best, unique := 0, true
	for c := 1; c < n; c++ {
		switch {
		case score[c] > score[best]+1e-9:
			best, unique = c, true
		case score[c] > score[best]-1e-9:
			unique = false
		}
	}
	k := float64(len(tb.agents))
	switch {
	case n == 0 || !unique:
		return -1
	case tb.rule == "majority" && score[best] <= k/2:
		return -1
	case tb.rule == "unanimous" && score[best] < k:
		return -1
	}
	return best
}

func TestSimulationMajorityRaisesU(t *testing.T) {
	tb := newTable(t, Asymmetric, 3, 1, "majority")
	m := tb.e.Measure(tb.play(t, 10))
	t.Logf("U by round: %s", percents(m.U))
	for r := 1; r < len(m.U); r++ {
		if m.U[r] < m.U[r-1]-1e-12 {
			t.Errorf("U fell from %.4f to %.4f in round %d", m.U[r-1], m.U[r], r+1)
		}
	}
	if m.U[0] >= m.At(10) || m.At(10) <= 0.75 {
		t.Errorf("U@1 = %.4f, U@10 = %.4f; want a rise to above 0.75", m.U[0], m.At(10))
	}
}

func percents(u []float64) string {
	s := ""
	for _, x := range u {
		s += fmt.Sprintf(" %.1f", 100*x)
	}
	return s
}

func TestSimulationRules(t *testing.T) {
	const runs = 50
	for _, rule := range []string{"majority", "unanimous", "plurality", "rated", "ranked", "cumulative"} {
		var u3, u5, u10, auc, rat, fair, rig float64
		for seed := range int64(runs) {
			tb := newTable(t, Asymmetric, 3, seed, rule)
			m := tb.e.Measure(tb.play(t, 10))
			u3 += m.At(3) / runs
			u5 += m.At(5) / runs
			u10 += m.At(10) / runs
			auc += m.MeanAUC(10) / runs
			rat += m.Rationality / runs
			fair += m.Fairness / runs
			rig += m.Rigidity / runs
		}
		t.Logf("%-10s U@3 %5.1f U@5 %5.1f U@10 %5.1f AUC@10 %5.1f rationality %5.1f min/max %5.1f rigidity %5.1f",
			rule, 100*u3, 100*u5, 100*u10, 100*auc, 100*rat, 100*fair, 100*rig)
	}
}
