package earlystop

import "math"

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
	Oracle         Method = "oracle"
)

// Methods lists every method in the paper's order.
func Methods() []Method {
	return []Method{Baseline, FirstAgreement, Consecutive, Checkpoint, InfoDifference, DialogueAct, Oracle}
}

// Label is the method's name as the paper's tables print it.
func (m Method) Label() string {
	return map[Method]string{Baseline: "@R (baseline)", FirstAgreement: "First Agreement", Consecutive: "Consecutive Agreements",
		Checkpoint: "Validation Checkpoint", InfoDifference: "Information Difference", DialogueAct: "Dialogue Act", Oracle: "Oracle"}[m]
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
