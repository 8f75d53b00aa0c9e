package vote_test

import (
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"pgregory.net/rapid"
)

var letters = []string{"A", "B", "C", "D", "E", "F", "G", "H"}

var policies = []vote.TiePolicy{vote.TieDefer, vote.TieRandom, vote.TieIncumbent}

// genProfile draws a profile for rule with distinct voters; most ballots are
// valid, some abstain and some are invalid.
func genProfile(t *rapid.T, rule vote.Rule) vote.Profile {
	cands := letters[:rapid.IntRange(1, 5).Draw(t, "candidates")]
	voters := rapid.IntRange(0, 12).Draw(t, "voters")
	ballots := make([]vote.Ballot, voters)
	for i := range ballots {
		ballots[i] = genBallot(t, rule, cands, fmt.Sprintf("v%d", i))
	}
	return vote.Profile{
		Participants: rapid.IntRange(0, voters+3).Draw(t, "participants"),
		Candidates:   cands,
		Incumbent:    rapid.SampledFrom(append([]string{""}, cands...)).Draw(t, "incumbent"),
		Ballots:      ballots,
	}
}

func genOptions(t *rapid.T) vote.Options {
	return vote.Options{
		Tie:  rapid.SampledFrom(policies).Draw(t, "tie"),
		Seed: rapid.Int64().Draw(t, "seed"),
	}
}

func genBallot(t *rapid.T, rule vote.Rule, cands []string, voter string) vote.Ballot {
	switch rapid.IntRange(0, 9).Draw(t, "kind") {
	case 0:
		return vote.Ballot{Voter: voter, Abstain: true}
	case 1:
		return vote.Ballot{Voter: voter, Choice: "Z", Ranking: []string{"Z"}, Points: map[string]int{"A": -1}}
	}
	return validBallot(t, rule, cands, voter)
}

// validBallot draws a valid ballot for rule.
func validBallot(t *rapid.T, rule vote.Rule, cands []string, voter string) vote.Ballot {
	b := vote.Ballot{Voter: voter}
	switch rule.Format() {
	case vote.FormatChoice:
		b.Choice = rapid.SampledFrom(cands).Draw(t, "choice")
	case vote.FormatScores:
		b.Scores = map[string]int{}
		for _, c := range cands {
			b.Scores[c] = rapid.IntRange(vote.MinScore, vote.MaxScore).Draw(t, "score")
		}
	case vote.FormatRanking:
		b.Ranking = rapid.Permutation(cands).Draw(t, "ranking")
		if rule != vote.Borda {
			b.Ranking = b.Ranking[:rapid.IntRange(1, len(cands)).Draw(t, "prefix")]
		}
	case vote.FormatPoints:
		b.Points = map[string]int{}
		left := len(cands)
		for _, c := range cands {
			b.Points[c] = rapid.IntRange(0, left).Draw(t, "points")
			left -= b.Points[c]
		}
	case vote.FormatApprove:
		for _, c := range cands {
			if rapid.Bool().Draw(t, "approve") {
				b.Approve = append(b.Approve, c)
			}
		}
	}
	return b
}

func mustTally(t *rapid.T, rule vote.Rule, p vote.Profile, opt vote.Options) vote.Result {
	res, err := vote.Tally(rule, p, opt)
	if err != nil {
		t.Fatalf("Tally(%s): %v", rule, err)
	}
	return res
}

// sameResult compares results exactly, rejections as a multiset.
func sameResult(t *rapid.T, a, b vote.Result) {
	sortRej := func(r []vote.Rejection) []vote.Rejection {
		r = slices.Clone(r)
		slices.SortFunc(r, func(x, y vote.Rejection) int { return strings.Compare(x.Voter+x.Reason, y.Voter+y.Reason) })
		return r
	}
	if !slices.Equal(sortRej(a.Rejected), sortRej(b.Rejected)) {
		t.Fatalf("Rejected differ: %v vs %v", a.Rejected, b.Rejected)
	}
	for c, x := range a.Totals {
		if b.Totals[c] == nil || x.Cmp(b.Totals[c]) != 0 {
			t.Fatalf("Totals[%s] differ: %v vs %v", c, x, b.Totals[c])
		}
	}
	a.Rejected, b.Rejected, a.Totals, b.Totals = nil, nil, nil, nil
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("results differ:\n%+v\n%+v", a, b)
	}
}

func TestPropBallotOrderIsIrrelevant(t *testing.T) {
	for _, rule := range vote.Rules() {
		t.Run(string(rule), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				p, opt := genProfile(t, rule), genOptions(t)
				shuffled := p
				shuffled.Ballots = rapid.Permutation(p.Ballots).Draw(t, "order")
				sameResult(t, mustTally(t, rule, p, opt), mustTally(t, rule, shuffled, opt))
			})
		})
	}
}

func TestPropInvariants(t *testing.T) {
	for _, rule := range vote.Rules() {
		t.Run(string(rule), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				p := genProfile(t, rule)
				checkInvariants(t, mustTally(t, rule, p, genOptions(t)), p)
			})
		})
	}
}

// checkInvariants holds for every result of a well-formed profile.
func checkInvariants(t interface{ Fatalf(string, ...any) }, res vote.Result, p vote.Profile) {
	if n := res.Counted + res.Abstained + res.Superseded + len(res.Rejected); n != len(p.Ballots) {
		t.Fatalf("%d ballots accounted for, %d cast", n, len(p.Ballots))
	}
	if res.Winner != "" && !slices.Contains(p.Candidates, res.Winner) {
		t.Fatalf("winner %q is not a candidate", res.Winner)
	}
	if res.Winner != "" && res.Counted == 0 {
		t.Fatalf("winner %q without counted ballots", res.Winner)
	}
	if len(res.Totals) != len(p.Candidates) || len(res.Ranking) != len(p.Candidates) {
		t.Fatalf("totals %v / ranking %v do not cover %v", res.Totals, res.Ranking, p.Candidates)
	}
	for _, c := range p.Candidates {
		if res.Totals[c] == nil || res.Totals[c].Sign() < 0 || !slices.Contains(res.Ranking, c) {
			t.Fatalf("candidate %q: total %v, ranking %v", c, res.Totals[c], res.Ranking)
		}
	}
	if res.Winner != "" && len(res.Tied) > 0 && !slices.Contains(res.Tied, res.Winner) {
		t.Fatalf("winner %q not among tied %v", res.Winner, res.Tied)
	}
	if res.Reason == "" {
		t.Fatalf("empty reason")
	}
}

func TestPropUnanimousWinnerWinsMajorityAndPlurality(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p, opt := genProfile(t, vote.Unanimous), genOptions(t)
		if rapid.Bool().Draw(t, "consensus") && len(p.Ballots) > 0 {
			c := rapid.SampledFrom(p.Candidates).Draw(t, "consensus choice")
			for i := range p.Ballots {
				p.Ballots[i] = choice(p.Ballots[i].Voter, c)
			}
		}
		w := mustTally(t, vote.Unanimous, p, opt).Winner
		if w == "" {
			return
		}
		for _, rule := range []vote.Rule{vote.Majority, vote.Plurality} {
			if got := mustTally(t, rule, p, opt).Winner; got != w {
				t.Fatalf("unanimous winner %q, %s winner %q", w, rule, got)
			}
		}
	})
}

func TestPropSupportingTheWinnerKeepsItWinning(t *testing.T) {
	support := map[vote.Rule]func(w string, cands []string) vote.Ballot{
		vote.Plurality: func(w string, _ []string) vote.Ballot { return choice("newcomer", w) },
		vote.Rated: func(w string, cands []string) vote.Ballot {
			s := map[string]int{}
			for _, c := range cands {
				s[c] = 1
			}
			s[w] = 5
			return scores("newcomer", s)
		},
	}
	for rule, ballot := range support {
		t.Run(string(rule), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				p, opt := genProfile(t, rule), genOptions(t)
				w := mustTally(t, rule, p, opt).Winner
				if w == "" {
					return
				}
				p.Ballots = append(p.Ballots, ballot(w, p.Candidates))
				if got := mustTally(t, rule, p, opt).Winner; got != w {
					t.Fatalf("winner %q lost to %q after gaining a ballot", w, got)
				}
			})
		})
	}
}

func TestPropRankedTotalsAreHarmonicSums(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cands := letters[:rapid.IntRange(1, 8).Draw(t, "candidates")]
		const lcm = 840 // lcm(1..8): every place's points as an integer share
		scaled := map[string]int64{}
		var p vote.Profile
		p.Candidates = cands
		for i := range rapid.IntRange(0, 20).Draw(t, "voters") {
			b := validBallot(t, vote.Ranked, cands, fmt.Sprintf("v%d", i))
			for place, c := range b.Ranking {
				scaled[c] += lcm / int64(place+1)
			}
			p.Ballots = append(p.Ballots, b)
		}
		res := mustTally(t, vote.Ranked, p, vote.Options{})
		for _, c := range cands {
			if want := big.NewRat(scaled[c], lcm); res.Totals[c].Cmp(want) != 0 {
				t.Fatalf("Totals[%s] = %v, want %v", c, res.Totals[c], want)
			}
		}
	})
}

func TestPropRandomTieIsDeterministic(t *testing.T) {
	for _, rule := range vote.Rules() {
		t.Run(string(rule), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				p := genProfile(t, rule)
				opt := vote.Options{Tie: vote.TieRandom, Seed: rapid.Int64().Draw(t, "seed")}
				a, b := mustTally(t, rule, p, opt), mustTally(t, rule, p, opt)
				if a.Winner != b.Winner || a.Reason != b.Reason {
					t.Fatalf("same seed, different outcomes: %q (%s) vs %q (%s)", a.Winner, a.Reason, b.Winner, b.Reason)
				}
				if len(a.Tied) > 0 && !slices.Contains(a.Tied, a.Winner) {
					t.Fatalf("random winner %q not among tied %v", a.Winner, a.Tied)
				}
			})
		})
	}
}

func TestPropRandomTiePicksATiedCandidate(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cands := letters[:rapid.IntRange(2, 6).Draw(t, "candidates")]
		perm := rapid.Permutation(cands).Draw(t, "perm")
		tied := perm[:rapid.IntRange(2, len(cands)).Draw(t, "tied")]
		slices.SortFunc(tied, func(a, b string) int { return slices.Index(cands, a) - slices.Index(cands, b) })
		top := rapid.IntRange(1, 4).Draw(t, "top")
		var ballots []vote.Ballot
		for _, c := range cands {
			n := top
			if !slices.Contains(tied, c) {
				n = rapid.IntRange(0, top-1).Draw(t, "behind")
			}
			for range n {
				ballots = append(ballots, choice(fmt.Sprintf("v%d", len(ballots)), c))
			}
		}
		p := vote.Profile{Candidates: cands, Ballots: ballots}
		opt := vote.Options{Tie: vote.TieRandom, Seed: rapid.Int64().Draw(t, "seed")}
		res := mustTally(t, vote.Plurality, p, opt)
		if !slices.Equal(res.Tied, tied) {
			t.Fatalf("Tied = %v, want %v", res.Tied, tied)
		}
		if !slices.Contains(tied, res.Winner) {
			t.Fatalf("winner %q not among tied %v", res.Winner, tied)
		}
		if again := mustTally(t, vote.Plurality, p, opt); again.Winner != res.Winner {
			t.Fatalf("same seed gave %q then %q", res.Winner, again.Winner)
		}
	})
}
