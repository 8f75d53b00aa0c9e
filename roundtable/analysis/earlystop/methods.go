package earlystop

import (
	"math"
	"slices"
)

// Method names a stopping method.
type Method string

// The methods, in the paper's order.
const (
	Baseline       Method = "@R"
	FirstAgreement Method = "first-agreement"
	Consecutive    Method = "consecutive-agreements"
	Checkpoint     Method = "validation-checkpoint"
	InfoDifference Method = "information-difference"
	DialogueAct    Method = "dialogue-act"
	Ensemble       Method = "ensemble"
	Oracle         Method = "oracle"
)

// Methods lists every method in the paper's order (Table 11's Ensemble
// before the oracle).
func Methods() []Method {
	return []Method{Baseline, FirstAgreement, Consecutive, Checkpoint, InfoDifference, DialogueAct, Ensemble, Oracle}
}

// Label is the method's name as the paper's tables print it.
func (m Method) Label() string {
	return map[Method]string{Baseline: "@R (baseline)", FirstAgreement: "First Agreement", Consecutive: "Consecutive Agreements",
		Checkpoint: "Validation Checkpoint", InfoDifference: "Information Difference", DialogueAct: "Dialogue Act", Ensemble: "Ensemble", Oracle: "Oracle"}[m]
}

// Stop is where a method stopped one run: Round (1-based) and whether
// the method's signal fired (false: it ran to the last round).
type Stop struct {
	Round int
	Fired bool
}

// stopper decides where one run stops.
type stopper func(r Run) Stop

func runToEnd(r Run) Stop { return Stop{Round: r.Rounds()} }

// firstAgreement stops in the first round whose vote passed a proposal.
func firstAgreement(r Run) Stop {
	for i, ok := range r.Agreed {
		if ok {
			return Stop{Round: i + 1, Fired: true}
		}
	}
	return runToEnd(r)
}

// consecutive stops in round r when round r-1 passed a proposal and
// nobody made a new proposal in round r.
func consecutive(r Run) Stop {
	for i := 1; i < len(r.Agreed) && i < len(r.Proposed); i++ {
		if r.Agreed[i-1] && !r.Proposed[i] {
			return Stop{Round: i + 1, Fired: true}
		}
	}
	return runToEnd(r)
}

// atRound stops every run at round c (or its last, if shorter).
func atRound(c int) stopper {
	return func(r Run) Stop {
		if c >= 1 && c <= r.Rounds() {
			return Stop{Round: c, Fired: true}
		}
		return runToEnd(r)
	}
}

// belowThreshold stops in the first round whose information difference
// is below t.
func belowThreshold(t float64) stopper {
	return func(r Run) Stop {
		if math.IsNaN(t) {
			return runToEnd(r)
		}
		for i, d := range r.InfoDiff {
			if !math.IsNaN(d) && d < t {
				return Stop{Round: i + 1, Fired: true}
			}
		}
		return runToEnd(r)
	}
}

// ensembleQuorum is how many of the five signal methods an ensemble stop
// waits for: a majority.
const ensembleQuorum = 3

// ensemble combines the five signal methods (first agreement, consecutive
// agreements, validation checkpoint, information difference, dialogue
// act), each as trained on the fold: Table 11 of RoundTable reports an
// Ensemble without defining it. Decision: a majority vote over time, the
// run stops in the first round by which three of the five have stopped
// it (the third earliest of their rounds, counting only those that
// fired); with fewer than three firing it runs to the end.
func ensemble(signals ...stopper) stopper {
	return func(r Run) Stop {
		var rounds []int
		for _, s := range signals {
			if st := s(r); st.Fired {
				rounds = append(rounds, st.Round)
			}
		}
		if len(rounds) < ensembleQuorum {
			return runToEnd(r)
		}
		slices.Sort(rounds)
		return Stop{Round: rounds[ensembleQuorum-1], Fired: true}
	}
}
