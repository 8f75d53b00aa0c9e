package exchange

import "math"

// RoundOutcome is what one round of a table produced.
type RoundOutcome struct {
	// Decision is the decision in force after this round's vote; nil means
	// nothing has been decided yet.
	Decision Allocation
	// Proposals are the proposals made in this round (skips are left out).
	Proposals []ProposalRecord
	// NoVote marks a round that ended before its vote (an early stop in its
	// proposal phase): it does not count toward Rigidity (docs/protocol.md#exchange-economy).
	NoVote bool
}

// ProposalRecord is one proposal and the context it was made in.
type ProposalRecord struct {
	Proposer       int        // 0-based agent index
	Allocation     Allocation // what was proposed
	DecisionBefore Allocation // the decision in force when it was proposed; nil = none
}

// Metrics are the paper's exchange-economy measures of one table.
type Metrics struct {
	// U[r-1] is U_r/U_max after round r, a fraction in [0, 1]; 0 while
	// nothing is decided.
	U []float64
	// Fairness is min_i u_i / max_i u_i under the last round's decision, 0
	// if nothing was decided.
	Fairness float64
	// Rationality is the share of proposals whose proposer's utility exceeds
	// its utility under the decision in force (utility 0 with no decision);
	// 0 when there were no proposals (see Proposals).
	Rationality float64
	// Rigidity is the share of rounds r with U_r = U_{r-1} (U_0 = 0), equal
	// within 1e-12, among the rounds that had a vote; 0 for none.
	Rigidity float64
	// Proposals counts the proposals Rationality is over.
	Proposals int
}

// rigidTolerance is how close U_r and U_{r-1} (fractions of U_max) must be to
// count as unchanged.
const rigidTolerance = 1e-12

// Measure computes the metrics of a table from its rounds, in order.
// Fractions above 1 (a decision beating the numerical U_max by rounding) are
// reported as 1.
func (e *Economy) Measure(rounds []RoundOutcome) Metrics {
	umax, _ := e.UMax()
	m := Metrics{U: make([]float64, len(rounds))}
	prev, rigid, voted, rational := 0.0, 0, 0, 0
	for r, out := range rounds {
		if out.Decision != nil && umax > 0 {
			m.U[r] = math.Min(1, e.Total(out.Decision)/umax)
		}
		if !out.NoVote {
			voted++
			if math.Abs(m.U[r]-prev) <= rigidTolerance {
				rigid++
			}
		}
		prev = m.U[r]
		for _, p := range out.Proposals {
			m.Proposals++
			if exceeds(e.Utility(p.Proposer, p.Allocation), e.decisionUtility(p.Proposer, p.DecisionBefore)) {
				rational++
			}
		}
	}
	if voted > 0 {
		m.Rigidity = float64(rigid) / float64(voted)
	}
	if len(rounds) > 0 {
		m.Fairness = e.fairness(rounds[len(rounds)-1].Decision)
	}
	if m.Proposals > 0 {
		m.Rationality = float64(rational) / float64(m.Proposals)
	}
	return m
}

// exceeds reports whether utility u is above v by more than rounding noise,
// so re-proposing the decision in force never counts as an improvement.
func exceeds(u, v float64) bool {
	return u > v+1e-12*math.Max(1, math.Abs(v))
}

// decisionUtility is agent i's utility under d, 0 with no decision.
func (e *Economy) decisionUtility(i int, d Allocation) float64 {
	if d == nil {
		return 0
	}
	return e.Utility(i, d)
}

// fairness is min_i u_i / max_i u_i under d, 0 for no decision or when
// nobody gets anything.
func (e *Economy) fairness(d Allocation) float64 {
	if d == nil {
		return 0
	}
	lo, hi := math.Inf(1), 0.0
	for i := 0; i < e.K; i++ {
		u := e.Utility(i, d)
		lo, hi = math.Min(lo, u), math.Max(hi, u)
	}
	if hi <= 0 {
		return 0
	}
	return lo / hi
}

// At is U@r, U_r/U_max for round r (1-based). Past the last measured round
// the final decision is carried forward, so a table that stopped early
// keeps its last value; r < 1, or no rounds at all, gives 0.
func (m Metrics) At(r int) float64 {
	if r < 1 || len(m.U) == 0 {
		return 0
	}
	return m.U[min(r, len(m.U))-1]
}

// AUC is AUC@n = sum_{r=1..n} U_r/U_max, carrying the final decision forward
// past the last round (see At). It ranges over [0, n]. The paper's tables
// print it divided by n, as a percentage; see MeanAUC.
func (m Metrics) AUC(n int) float64 {
	sum := 0.0
	for r := 1; r <= n; r++ {
		sum += m.At(r)
	}
	return sum
}

// MeanAUC is AUC(n)/n, in [0, 1]: the form the paper's tables report (as a
// percentage). It is 0 for n < 1.
func (m Metrics) MeanAUC(n int) float64 {
	if n < 1 {
		return 0
	}
	return m.AUC(n) / float64(n)
}
