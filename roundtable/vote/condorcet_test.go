package vote

import (
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// profileOf expands "count:ORDER" groups (ORDER one letter a candidate,
// best first) into ranking ballots.
func profileOf(cands string, groups ...string) Profile {
	p := Profile{Candidates: strings.Split(cands, "")}
	for _, g := range groups {
		n, order, _ := strings.Cut(g, ":")
		for k := range atoi(n) {
			p.Ballots = append(p.Ballots, Ballot{Voter: g + "#" + string(rune('a'+k%26)) + string(rune('a'+k/26)), Ranking: strings.Split(order, "")})
		}
	}
	return p
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = 10*n + int(c-'0')
	}
	return n
}

// wikipediaSchulze is the 45-voter, five-candidate example of the Schulze
// method on Wikipedia (https://en.wikipedia.org/wiki/Schulze_method,
// section "Example"), whose result is E > A > C > B > D.
var wikipediaSchulze = profileOf("ABCDE",
	"5:ACBED", "5:ADECB", "8:BEDAC", "3:CABED", "7:CAEBD", "2:CBADE", "7:DCEBA", "8:EBADC")

func TestSchulzeWikipediaExample(t *testing.T) {
	e := &election{cands: newCandidateSet(wikipediaSchulze.Candidates), ballots: wikipediaSchulze.Ballots}
	d := e.pairwise()
	// The pairwise preferences d[X,Y] printed on Wikipedia, row A..E.
	wantD := [][]int64{{0, 20, 26, 30, 22}, {25, 0, 16, 33, 18}, {19, 29, 0, 17, 24}, {15, 12, 28, 0, 14}, {23, 27, 21, 31, 0}}
	// The strengths of the strongest paths p[X,Y], row A..E.
	wantP := [][]int64{{0, 28, 28, 30, 24}, {25, 0, 28, 33, 24}, {25, 29, 0, 29, 24}, {25, 28, 28, 0, 24}, {25, 28, 28, 31, 0}}
	if !slices.EqualFunc(d, wantD, slices.Equal) {
		t.Errorf("pairwise %v, want %v", d, wantD)
	}
	if p := strongestPaths(d); !slices.EqualFunc(p, wantP, slices.Equal) {
		t.Errorf("strongest paths %v, want %v", p, wantP)
	}
	res, err := Tally(Schulze, wikipediaSchulze, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Winner != "E" || strings.Join(res.Ranking, "") != "EACBD" {
		t.Errorf("winner %q ranking %v, want E and E > A > C > B > D", res.Winner, res.Ranking)
	}
}

// tennessee is the example of Wikipedia's "Copeland's method" (and of its
// "Condorcet method" article): the capital chosen by 100 voters, 42 near
// Memphis, 26 Nashville, 15 Chattanooga and 17 Knoxville; Nashville beats
// each other city head to head (https://en.wikipedia.org/wiki/Copeland%27s_method).
var tennessee = profileOf("MNCK", "42:MNCK", "26:NCKM", "15:CKNM", "17:KCNM")

func TestCopelandTennesseeExample(t *testing.T) {
	res, err := Tally(Copeland, tennessee, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Winner != "N" || strings.Join(res.Ranking, "") != "NCKM" {
		t.Errorf("winner %q ranking %v, want Nashville, then Chattanooga, Knoxville, Memphis", res.Winner, res.Ranking)
	}
	if got := res.Totals["N"].RatString() + " " + res.Totals["M"].RatString(); got != "3 0" {
		t.Errorf("scores N, M = %s, want 3 and 0", got)
	}
	if res, _ := Tally(Schulze, tennessee, Options{}); res.Winner != "N" {
		t.Errorf("Schulze picks %q, want the Condorcet winner N", res.Winner)
	}
}

// A Condorcet cycle (A > B > C > A, one voter each) ties every candidate
// under both rules: the tie policy decides.
func TestCondorcetCycleFollowsTheTiePolicy(t *testing.T) {
	cycle := profileOf("ABC", "1:ABC", "1:BCA", "1:CAB")
	cycle.Incumbent = "B"
	for _, rule := range []Rule{Copeland, Schulze} {
		res, _ := Tally(rule, cycle, Options{})
		if res.Winner != "" || strings.Join(res.Tied, "") != "ABC" {
			t.Errorf("%s defer: winner %q tied %v, want none and a three-way tie", rule, res.Winner, res.Tied)
		}
		if res, _ := Tally(rule, cycle, Options{Tie: TieIncumbent}); res.Winner != "B" {
			t.Errorf("%s incumbent: winner %q, want B", rule, res.Winner)
		}
		a, _ := Tally(rule, cycle, Options{Tie: TieRandom, Seed: 3})
		b, _ := Tally(rule, cycle, Options{Tie: TieRandom, Seed: 3})
		if a.Winner == "" || a.Winner != b.Winner {
			t.Errorf("%s random: winners %q and %q, want the same seeded pick", rule, a.Winner, b.Winner)
		}
	}
}

// Unlisted candidates rank below listed ones and level with each other.
func TestCondorcetRulesReadPartialRankings(t *testing.T) {
	p := profileOf("ABC", "2:A", "1:BC")
	for _, rule := range []Rule{Copeland, Schulze} {
		if res, _ := Tally(rule, p, Options{}); res.Winner != "A" {
			t.Errorf("%s: winner %q, want A (ranked first by 2 of 3)", rule, res.Winner)
		}
	}
}

func TestQuorumWithholdsTheDecision(t *testing.T) {
	p := Profile{Participants: 5, Candidates: []string{"A", "B"}, Ballots: []Ballot{
		{Voter: "v1", Choice: "A"}, {Voter: "v2", Choice: "A"}, {Voter: "v3", Abstain: true}}}
	for _, c := range []struct {
		quorum int
		winner string
	}{{0, "A"}, {3, "A"}, {4, ""}} {
		res, err := Tally(Plurality, p, Options{Quorum: c.quorum})
		if err != nil {
			t.Fatal(err)
		}
		if res.Winner != c.winner || res.Totals["A"].RatString() != "2" {
			t.Errorf("quorum %d: winner %q totals %v, want %q with the totals kept", c.quorum, res.Winner, res.Totals, c.winner)
		}
		if c.winner == "" && res.Reason != "quorum not met: 3 of the 4 ballots required were cast" {
			t.Errorf("reason %q", res.Reason)
		}
	}
}

// TestCondorcetWinnerWinsBothRules: whenever one candidate beats every
// other head to head, Copeland and Schulze elect it, whatever the tie
// policy (a Condorcet winner is never tied).
func TestCondorcetWinnerWinsBothRules(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		cands := strings.Split("ABCDE"[:rapid.IntRange(2, 5).Draw(t, "n")], "")
		p := Profile{Candidates: cands}
		for v := range rapid.IntRange(1, 9).Draw(t, "voters") {
			r := rapid.Permutation(cands).Draw(t, "ranking")
			p.Ballots = append(p.Ballots, Ballot{Voter: string(rune('a' + v)), Ranking: r[:rapid.IntRange(1, len(r)).Draw(t, "prefix")]})
		}
		e := &election{cands: newCandidateSet(cands), ballots: p.Ballots}
		d := e.pairwise()
		winner := ""
		for i := range d {
			beatsAll := true
			for j := range d {
				beatsAll = beatsAll && (i == j || d[i][j] > d[j][i])
			}
			if beatsAll {
				winner = cands[i]
			}
		}
		for _, rule := range []Rule{Copeland, Schulze} {
			res, err := Tally(rule, p, Options{Tie: TieIncumbent})
			if err != nil {
				t.Fatal(err)
			}
			if winner != "" && (res.Winner != winner || res.Tied != nil) {
				t.Fatalf("%s elects %q (tied %v), want the Condorcet winner %s", rule, res.Winner, res.Tied, winner)
			}
		}
	})
}
