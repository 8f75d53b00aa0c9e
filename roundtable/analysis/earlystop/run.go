// Package earlystop decides when a table could have stopped
// (RoundTable §4.5, App. C.7; docs/protocol.md#early-stopping-methods-in-analysis): the baseline @R,
// first agreement, consecutive agreements, the validation checkpoint,
// information difference, the dialogue-act stop and the oracle. The
// trained methods learn on training runs and are scored on held-out runs
// by k-fold cross-validation with folds drawn from a seed (Evaluate).
//
// The package works on plain per-round numbers (Run): the caller measures
// the tables (performance, information difference, dialogue acts) and this
// package only decides and scores.
package earlystop

import (
	"fmt"
	"math"
)

// Run is one table as the methods see it. Index r-1 of every slice is
// round r; all slices have the length of Perf (the rounds the table
// played), or are nil when the table has no such measure.
type Run struct {
	// Perf is the performance of the decision in force after each round
	// (for example U_r/U_max, or a rating's absolute error).
	Perf []float64
	// Agreed says a proposal passed the rule in the round.
	Agreed []bool
	// Proposed says someone made a new proposal in the round (one that is
	// not its author's previous proposal again).
	Proposed []bool
	// InfoDiff is the round's information difference; NaN where there is
	// none (the first round, a round without messages).
	InfoDiff []float64
	// Pairs counts the round's dialogue-act pairs: an act in round r-1
	// (Start before round 1) followed by an act in round r by someone
	// else, counted as the caller's transition graph counts them (the
	// report uses the paper's Eq. 1: every ordered pair of speakers).
	Pairs []map[Pair]int
}

// Pair is a dialogue-act transition from one round to the next.
type Pair struct{ From, To string }

// String is "From->To".
func (p Pair) String() string { return p.From + "->" + p.To }

// Rounds is how many rounds the run played.
func (r Run) Rounds() int { return len(r.Perf) }

// Validate checks that every measure has one entry per round and that
// performance is a number.
func (r Run) Validate() error {
	n := len(r.Perf)
	if n == 0 {
		return fmt.Errorf("no rounds")
	}
	for i, p := range r.Perf {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return fmt.Errorf("round %d: performance %v is not a number", i+1, p)
		}
	}
	for name, l := range map[string]int{"agreed": len(r.Agreed), "proposed": len(r.Proposed), "info-diff": len(r.InfoDiff), "pairs": len(r.Pairs)} {
		if l != 0 && l != n {
			return fmt.Errorf("%s has %d rounds, performance %d", name, l, n)
		}
	}
	return nil
}

// Direction says which way performance is better.
type Direction int

// Directions.
const (
	HigherIsBetter Direction = iota // utility
	LowerIsBetter                   // error (MAE)
)

// goodness turns performance into "higher is better".
func (d Direction) goodness(p float64) float64 {
	if d == LowerIsBetter {
		return -p
	}
	return p
}

// best is the round (1-based) of the run's best performance; the
// earliest of equals.
func (d Direction) best(r Run) int {
	b := 1
	for i, p := range r.Perf {
		if d.goodness(p) > d.goodness(r.Perf[b-1]) {
			b = i + 1
		}
	}
	return b
}
