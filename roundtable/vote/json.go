package vote

import (
	"encoding/json"
	"math/big"
	"strings"
)

// resultJSON is the wire form of Result.
type resultJSON struct {
	Rule       Rule                   `json:"rule"`
	Winner     *string                `json:"winner"`
	Totals     map[string]json.Number `json:"totals"`
	Tied       []string               `json:"tied"`
	Ranking    []string               `json:"ranking"`
	Rejected   []Rejection            `json:"rejected"`
	Counted    int                    `json:"counted"`
	Abstained  int                    `json:"abstained"`
	Superseded int                    `json:"superseded"`
	Reason     string                 `json:"reason"`
	Rounds     []Round                `json:"rounds,omitempty"`
}

// MarshalJSON writes the result with "winner" null when there is none,
// arrays never null, and totals as JSON numbers (see Decimal).
func (r Result) MarshalJSON() ([]byte, error) {
	w := resultJSON{
		Rule:       r.Rule,
		Totals:     make(map[string]json.Number, len(r.Totals)),
		Tied:       orEmpty(r.Tied),
		Ranking:    orEmpty(r.Ranking),
		Rejected:   orEmpty(r.Rejected),
		Counted:    r.Counted,
		Abstained:  r.Abstained,
		Superseded: r.Superseded,
		Reason:     r.Reason,
		Rounds:     r.Rounds,
	}
	if r.Winner != "" {
		w.Winner = &r.Winner
	}
	for c, t := range r.Totals {
		w.Totals[c] = json.Number(Decimal(t))
	}
	return json.Marshal(w)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Decimal writes x in decimal, rounded to at most 6 places with trailing
// zeros trimmed: 1/3 is "0.333333", 3/2 is "1.5", 2 is "2". A nil x is "0".
func Decimal(x *big.Rat) string {
	if x == nil {
		return "0"
	}
	s := x.FloatString(6)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}
