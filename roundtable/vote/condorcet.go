package vote

import (
	"fmt"
	"math/big"
)

// pairwise returns d, where d[i][j] counts the counted ballots that rank
// candidate i above candidate j. A listed candidate is above every
// unlisted one; unlisted candidates are level with each other.
func (e *election) pairwise() [][]int64 {
	n := len(e.cands.names)
	d := make([][]int64, n)
	for i := range d {
		d[i] = make([]int64, n)
	}
	pos := make([]int, n)
	for _, b := range e.ballots {
		for i := range pos {
			pos[i] = len(b.Ranking) // unlisted: level, below every listed candidate
		}
		for k, c := range b.Ranking {
			pos[e.cands.index[c]] = k
		}
		for i := range n {
			for j := range n {
				if pos[i] < pos[j] {
					d[i][j]++
				}
			}
		}
	}
	return d
}

// countCopeland: each candidate scores one point per opponent it beats
// head to head (more ballots rank it above than below) and half a point
// per opponent it ties; the highest score wins. A Condorcet winner, if
// there is one, always wins.
func countCopeland(e *election) {
	d := e.pairwise()
	tot := make([]*big.Rat, len(d))
	for i := range d {
		tot[i] = new(big.Rat)
		for j := range d {
			switch {
			case i == j:
			case d[i][j] > d[j][i]:
				tot[i].Add(tot[i], big.NewRat(1, 1))
			case d[i][j] == d[j][i]:
				tot[i].Add(tot[i], big.NewRat(1, 2))
			}
		}
	}
	e.decideTop(tot)
	if e.res.Winner != "" && len(e.res.Tied) == 0 {
		e.res.Reason = fmt.Sprintf("%s wins with %s head to head (1 per win, 1/2 per tie)", e.res.Winner, e.amount(tot[e.cands.index[e.res.Winner]]))
	}
}

// strongestPaths is the Schulze method's widest-path matrix under winning
// votes: a direct link i->j has the strength d[i][j] when i beats j, else
// none; p[i][j] is the strongest path's weakest link.
func strongestPaths(d [][]int64) [][]int64 {
	n := len(d)
	p := make([][]int64, n)
	for i := range p {
		p[i] = make([]int64, n)
		for j := range n {
			if i != j && d[i][j] > d[j][i] {
				p[i][j] = d[i][j]
			}
		}
	}
	for k := range n {
		for i := range n {
			if i == k {
				continue
			}
			for j := range n {
				if j != i && j != k {
					p[i][j] = max(p[i][j], min(p[i][k], p[k][j]))
				}
			}
		}
	}
	return p
}

// countSchulze: the Schulze method with winning votes. A candidate's
// total is the number of opponents it beats by strongest path; the
// candidates no one beats win, several of them being a tie for first.
func countSchulze(e *election) {
	p := strongestPaths(e.pairwise())
	tot := make([]*big.Rat, len(p))
	for i := range p {
		beats := int64(0)
		for j := range p {
			if i != j && p[i][j] > p[j][i] {
				beats++
			}
		}
		tot[i] = big.NewRat(beats, 1)
	}
	e.setTotals(tot)
	if len(e.ballots) == 0 {
		return
	}
	var top []int
	for i := range p {
		unbeaten := true
		for j := range p {
			unbeaten = unbeaten && (i == j || p[i][j] >= p[j][i])
		}
		if unbeaten {
			top = append(top, i)
		}
	}
	if len(top) == 1 {
		e.win(top[0], fmt.Sprintf("%s beats every other candidate by strongest path (Schulze, winning votes)", e.cands.names[top[0]]))
		return
	}
	e.tie(top)
}
