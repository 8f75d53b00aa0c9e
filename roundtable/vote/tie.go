package vote

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// TiePolicy says how a tie for first place is settled.
type TiePolicy string

// The tie policies. The zero value behaves as TieDefer.
const (
	// TieDefer gives no winner (the paper's behaviour).
	TieDefer TiePolicy = "defer"
	// TieRandom picks one of the tied candidates with a PCG generator seeded
	// from Options.Seed: the same profile and seed always give the same winner.
	TieRandom TiePolicy = "random"
	// TieIncumbent keeps the incumbent if it is among the tied, else defers.
	TieIncumbent TiePolicy = "incumbent"
)

// ParseTiePolicy returns the policy named s, ignoring case and surrounding
// space; "" means TieDefer.
func ParseTiePolicy(s string) (TiePolicy, error) {
	switch p := TiePolicy(strings.ToLower(strings.TrimSpace(s))); p {
	case "":
		return TieDefer, nil
	case TieDefer, TieRandom, TieIncumbent:
		return p, nil
	}
	return "", fmt.Errorf("unknown tie policy %q (valid: %s, %s, %s)", s, TieDefer, TieRandom, TieIncumbent)
}

// tie settles a tie for first among the candidates at positions tied, which
// are in candidate order.
func (e *election) tie(tied []int) {
	names := e.cands.pick(tied)
	e.res.Tied = names
	what := "tie between " + joinAnd(names)
	switch e.opt.Tie {
	case TieRandom:
		rng := rand.New(rand.NewPCG(uint64(e.opt.Seed), 0))
		e.res.Winner = names[rng.IntN(len(names))]
		e.res.Reason = fmt.Sprintf("%s, broken at random (seed %d)", what, e.opt.Seed)
	case TieIncumbent:
		e.res.Reason = e.keepIncumbent(what, names)
	default:
		e.res.Reason = what + ", deferred"
	}
}

// keepIncumbent applies TieIncumbent and returns the reason.
func (e *election) keepIncumbent(what string, tied []string) string {
	switch {
	case e.incumbent == "":
		return what + ", deferred (no incumbent)"
	case !contains(tied, e.incumbent):
		return fmt.Sprintf("%s, deferred (incumbent %s is not among them)", what, e.incumbent)
	}
	e.res.Winner = e.incumbent
	return fmt.Sprintf("%s, incumbent %s kept", what, e.incumbent)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// joinAnd writes "A", "A and B", "A, B and C".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
