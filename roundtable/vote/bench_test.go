package vote_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// benchBallot makes a valid ballot for rule over cands.
func benchBallot(rng *rand.Rand, rule vote.Rule, cands []string, voter string) vote.Ballot {
	b := vote.Ballot{Voter: voter}
	order := make([]string, len(cands))
	for i, j := range rng.Perm(len(cands)) {
		order[i] = cands[j]
	}
	switch rule.Format() {
	case vote.FormatChoice:
		b.Choice = order[0]
	case vote.FormatScores:
		b.Scores = map[string]int{}
		for _, c := range cands {
			b.Scores[c] = 1 + rng.IntN(5)
		}
	case vote.FormatRanking:
		b.Ranking = order
	case vote.FormatPoints:
		b.Points = map[string]int{order[0]: 3, order[1]: 2}
	case vote.FormatApprove:
		b.Approve = order[:1+rng.IntN(len(order))]
	}
	return b
}

func BenchmarkTally(b *testing.B) {
	cands := []string{"A", "B", "C", "D", "E"}
	for _, rule := range vote.Rules() {
		rng := rand.New(rand.NewPCG(1, 2))
		p := vote.Profile{Candidates: cands, Ballots: make([]vote.Ballot, 1000)}
		for i := range p.Ballots {
			p.Ballots[i] = benchBallot(rng, rule, cands, fmt.Sprintf("voter%d", i))
		}
		b.Run(string(rule), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := vote.Tally(rule, p, vote.Options{})
				if err != nil || res.Counted != 1000 {
					b.Fatalf("Tally: %v, counted %d", err, res.Counted)
				}
			}
		})
	}
}
