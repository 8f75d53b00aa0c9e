package vote

import (
	"cmp"
	"fmt"
	"slices"
)

// countIRV runs instant-runoff voting.
//
// Each round, every counted ballot goes to its highest-ranked continuing
// candidate; a ballot with none left is exhausted. A candidate holding more
// than half of the non-exhausted ballots wins. Otherwise every candidate tied
// for the fewest votes is eliminated at once, unless that would eliminate all
// continuing candidates: then they are tied for first and the tie policy
// decides. Batch elimination needs no tie-breaking order, so the result never
// depends on candidate or ballot order.
func countIRV(e *election) {
	r := newRunoff(e)
	for len(e.ballots) > 0 && r.round(e) {
	}
	e.setIRVTotals(r)
}

// runoff is the state between IRV rounds.
type runoff struct {
	out       []bool // eliminated candidates
	lastRound []int  // per candidate, the last round it was counted in
	held      []int64
	next      []int // per ballot, position in its ranking
}

func newRunoff(e *election) *runoff {
	n := len(e.cands.names)
	return &runoff{
		out:       make([]bool, n),
		lastRound: make([]int, n),
		held:      make([]int64, n),
		next:      make([]int, len(e.ballots)),
	}
}

// round counts one round; it reports whether another round is needed.
func (r *runoff) round(e *election) bool {
	votes, exhausted := r.count(e)
	live := r.continuing()
	number := len(e.res.Rounds) + 1
	for _, i := range live {
		r.held[i], r.lastRound[i] = votes[i], number
	}
	e.res.Rounds = append(e.res.Rounds, Round{Votes: e.liveVotes(live, votes), Exhausted: exhausted, Eliminated: []string{}})
	active := int64(len(e.ballots) - exhausted)
	if active == 0 {
		e.res.Reason = "every ballot is exhausted"
		return false
	}
	for _, i := range live {
		if 2*votes[i] > active {
			e.win(i, fmt.Sprintf("%s wins in round %d with %d of %d continuing ballots", e.cands.names[i], number, votes[i], active))
			return false
		}
	}
	last := fewest(live, votes)
	if len(last) == len(live) {
		e.tie(live)
		return false
	}
	for _, i := range last {
		r.out[i] = true
	}
	e.res.Rounds[number-1].Eliminated = e.cands.pick(last)
	return true
}

// count gives each ballot to its top continuing candidate.
func (r *runoff) count(e *election) (votes []int64, exhausted int) {
	votes = make([]int64, len(r.out))
	for b, ballot := range e.ballots {
		for r.next[b] < len(ballot.Ranking) && r.out[e.cands.index[ballot.Ranking[r.next[b]]]] {
			r.next[b]++
		}
		if r.next[b] == len(ballot.Ranking) {
			exhausted++
			continue
		}
		votes[e.cands.index[ballot.Ranking[r.next[b]]]]++
	}
	return votes, exhausted
}

// continuing lists the positions of candidates not yet eliminated.
func (r *runoff) continuing() []int {
	var live []int
	for i, out := range r.out {
		if !out {
			live = append(live, i)
		}
	}
	return live
}

// fewest returns the live candidates with the fewest votes.
func fewest(live []int, votes []int64) []int {
	var last []int
	for _, i := range live {
		switch {
		case len(last) == 0 || votes[i] < votes[last[0]]:
			last = append(last[:0], i)
		case votes[i] == votes[last[0]]:
			last = append(last, i)
		}
	}
	return last
}

func (e *election) liveVotes(live []int, votes []int64) map[string]int {
	m := make(map[string]int, len(live))
	for _, i := range live {
		m[e.cands.names[i]] = int(votes[i])
	}
	return m
}

// setIRVTotals records the votes each candidate last held and ranks the
// candidates by survival, then by those votes.
func (e *election) setIRVTotals(r *runoff) {
	e.setTotals(rats(r.held))
	order := make([]int, len(r.held))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if d := r.lastRound[b] - r.lastRound[a]; d != 0 {
			return d
		}
		return cmp.Compare(r.held[b], r.held[a])
	})
	e.res.Ranking = e.cands.pick(order)
}
