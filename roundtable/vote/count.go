package vote

import (
	"fmt"
	"math/big"
	"strings"
)

// countUnanimous: the winner is chosen by all N participants.
func countUnanimous(e *election) {
	votes := e.intTotals(func(b Ballot, tot []int64) { tot[e.cands.index[b.Choice]]++ })
	e.setTotals(rats(votes))
	if len(e.ballots) == 0 {
		return
	}
	for i, v := range votes {
		if v == int64(e.n) {
			e.win(i, fmt.Sprintf("all %d participants chose %s", e.n, e.cands.names[i]))
			return
		}
	}
	e.res.Reason = fmt.Sprintf("no candidate was chosen by all %d participants%s", e.n, e.shortfall())
}

// shortfall explains, for unanimity, who did not vote for anyone.
func (e *election) shortfall() string {
	var parts []string
	if a := e.res.Abstained; a > 0 {
		parts = append(parts, fmt.Sprintf("%d abstained", a))
	}
	if m := e.n - e.res.Counted - e.res.Abstained; m > 0 {
		parts = append(parts, fmt.Sprintf("%d did not vote", m))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// countMajority: the winner has more than N/2 votes.
func countMajority(e *election) {
	votes := e.intTotals(func(b Ballot, tot []int64) { tot[e.cands.index[b.Choice]]++ })
	e.setTotals(rats(votes))
	if len(e.ballots) == 0 {
		return
	}
	best := 0
	for i, v := range votes {
		if v > votes[best] {
			best = i
		}
	}
	if 2*votes[best] > int64(e.n) {
		e.win(best, fmt.Sprintf("%s has %d of %d votes, more than half", e.cands.names[best], votes[best], e.n))
		return
	}
	half := Decimal(big.NewRat(int64(e.n), 2))
	e.res.Reason = fmt.Sprintf("no candidate has more than %s of %d votes", half, e.n)
}

// countPlurality: most votes.
func countPlurality(e *election) {
	e.decideTop(rats(e.intTotals(func(b Ballot, tot []int64) { tot[e.cands.index[b.Choice]]++ })))
}

// countRated: highest total score.
func countRated(e *election) {
	e.decideTop(rats(e.intTotals(func(b Ballot, tot []int64) {
		for c, s := range b.Scores {
			tot[e.cands.index[c]] += int64(s)
		}
	})))
}

// countCumulative: highest total of points.
func countCumulative(e *election) {
	e.decideTop(rats(e.intTotals(func(b Ballot, tot []int64) {
		for c, p := range b.Points {
			tot[e.cands.index[c]] += int64(p)
		}
	})))
}

// countBorda: n points for the top of a full order, down to 1 for the last.
func countBorda(e *election) {
	n := int64(len(e.cands.names))
	e.decideTop(rats(e.intTotals(func(b Ballot, tot []int64) {
		for i, c := range b.Ranking {
			tot[e.cands.index[c]] += n - int64(i)
		}
	})))
}

// countApproval: most approvals.
func countApproval(e *election) {
	e.decideTop(rats(e.intTotals(func(b Ballot, tot []int64) {
		for _, c := range b.Approve {
			tot[e.cands.index[c]]++
		}
	})))
}

// countRanked: place k earns 1/k. It counts how often each candidate holds
// each place and converts to rationals once, which keeps it exact and fast.
func countRanked(e *election) {
	places := make([][]int64, len(e.cands.names))
	for _, b := range e.ballots {
		for k, c := range b.Ranking {
			i := e.cands.index[c]
			for len(places[i]) <= k {
				places[i] = append(places[i], 0)
			}
			places[i][k]++
		}
	}
	tot := make([]*big.Rat, len(places))
	for i, counts := range places {
		tot[i] = new(big.Rat)
		for k, n := range counts {
			tot[i].Add(tot[i], big.NewRat(n, int64(k)+1))
		}
	}
	e.decideTop(tot)
}

// intTotals sums integer points over the counted ballots.
func (e *election) intTotals(add func(b Ballot, tot []int64)) []int64 {
	tot := make([]int64, len(e.cands.names))
	for _, b := range e.ballots {
		add(b, tot)
	}
	return tot
}

func rats(ints []int64) []*big.Rat {
	r := make([]*big.Rat, len(ints))
	for i, v := range ints {
		r[i] = new(big.Rat).SetInt64(v)
	}
	return r
}

// decideTop records the totals and elects the highest, applying the tie
// policy to a tie for first.
func (e *election) decideTop(tot []*big.Rat) {
	e.setTotals(tot)
	if len(e.ballots) == 0 {
		return
	}
	top := topSet(tot)
	best := tot[top[0]]
	switch {
	case best.Sign() == 0:
		e.res.Reason = fmt.Sprintf("no candidate received any %ss", e.spec.unit)
	case len(top) == 1:
		e.win(top[0], fmt.Sprintf("%s wins with %s", e.cands.names[top[0]], e.amount(best)))
	default:
		e.tie(top)
	}
}

// topSet returns the positions holding the maximum, in candidate order.
func topSet(tot []*big.Rat) []int {
	top := []int{0}
	for i := 1; i < len(tot); i++ {
		switch tot[i].Cmp(tot[top[0]]) {
		case 1:
			top = append(top[:0], i)
		case 0:
			top = append(top, i)
		}
	}
	return top
}

// amount writes a total with its unit, e.g. "3 votes", "1.833333 points".
func (e *election) amount(x *big.Rat) string {
	unit := e.spec.unit
	if x.Cmp(big.NewRat(1, 1)) != 0 {
		unit += "s"
	}
	return Decimal(x) + " " + unit
}
