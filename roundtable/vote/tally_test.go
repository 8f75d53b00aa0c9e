package vote_test

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestTallyUnanimous(t *testing.T) {
	runTallyCases(t, vote.Unanimous, []tallyCase{
		{name: "everyone chooses B, B wins", n: 3,
			ballots: []vote.Ballot{choice("v1", "B"), choice("v2", "B"), choice("v3", "B")},
			winner:  "B", reason: "all 3 participants chose B", counted: 3,
			totals: map[string]string{"A": "0", "B": "3", "C": "0"}, ranking: []string{"B", "A", "C"}},
		{name: "one abstention blocks", n: 3,
			ballots: []vote.Ballot{choice("v1", "B"), choice("v2", "B"), abstain("v3")},
			reason:  "no candidate was chosen by all 3 participants (1 abstained)", counted: 2, abstained: 1},
		{name: "a missing voter blocks", n: 4,
			ballots: []vote.Ballot{choice("v1", "B"), choice("v2", "B"), choice("v3", "B")},
			reason:  "no candidate was chosen by all 4 participants (1 did not vote)", counted: 3},
		{name: "split vote gives none", n: 2,
			ballots: []vote.Ballot{choice("v1", "A"), choice("v2", "B")},
			reason:  "no candidate was chosen by all 2 participants", counted: 2},
		{name: "an invalid ballot blocks",
			ballots: []vote.Ballot{choice("v1", "B"), choice("v2", "Z")},
			reason:  "no candidate was chosen by all 2 participants (1 did not vote)", counted: 1,
			rejected: []vote.Rejection{{Voter: "v2", Reason: `unknown candidate "Z"`}}},
		{name: "participants default to the voters",
			ballots: []vote.Ballot{choice("v1", "C"), choice("v2", "C")},
			winner:  "C", reason: "all 2 participants chose C", counted: 2},
		{name: "last valid ballot of a voter counts",
			ballots: []vote.Ballot{choice("v1", "A"), choice("v2", "B"), choice("v1", "B"), choice("v1", "Z")},
			winner:  "B", reason: "all 2 participants chose B", counted: 2, superseded: 1,
			rejected: []vote.Rejection{{Voter: "v1", Reason: `unknown candidate "Z"`}}},
		{name: "no votes gives none", n: 3, reason: "no votes were counted"},
	})
}

func TestTallyMajority(t *testing.T) {
	runTallyCases(t, vote.Majority, []tallyCase{
		{name: "more than half of N wins", n: 5,
			ballots: []vote.Ballot{choice("v1", "B"), choice("v2", "B"), choice("v3", "B"), choice("v4", "A")},
			winner:  "B", reason: "B has 3 of 5 votes, more than half", counted: 4,
			totals: map[string]string{"A": "1", "B": "3", "C": "0"}},
		{name: "exactly half is not enough", n: 4,
			ballots: []vote.Ballot{choice("v1", "B"), choice("v2", "B"), choice("v3", "A")},
			reason:  "no candidate has more than 2 of 4 votes", counted: 3},
		{name: "majority of voters is not a majority of N", n: 5,
			ballots: []vote.Ballot{choice("v1", "B"), choice("v2", "B")},
			reason:  "no candidate has more than 2.5 of 5 votes", counted: 2},
		{name: "abstentions count against everyone",
			ballots: []vote.Ballot{choice("v1", "B"), abstain("v2"), abstain("v3")},
			reason:  "no candidate has more than 1.5 of 3 votes", counted: 1, abstained: 2},
		{name: "participants below voters are raised to the voters", n: 1,
			ballots: []vote.Ballot{choice("v1", "B"), choice("v2", "A")},
			reason:  "no candidate has more than 1 of 2 votes", counted: 2},
		{name: "rejected ballots do not count",
			ballots: []vote.Ballot{choice("v1", "A"), choice("v2", "A"), scores("v3", map[string]int{"A": 1})},
			winner:  "A", reason: "A has 2 of 3 votes, more than half", counted: 2,
			rejected: []vote.Rejection{{Voter: "v3", Reason: "majority ballots need a choice, not scores"}}},
		{name: "all abstain gives none", ballots: []vote.Ballot{abstain("v1")},
			reason: "no votes were counted", abstained: 1},
	})
}

func TestTallyPlurality(t *testing.T) {
	ab := []vote.Ballot{choice("v1", "A"), choice("v2", "B"), abstain("v3")}
	runTallyCases(t, vote.Plurality, []tallyCase{
		{name: "most votes wins",
			ballots: []vote.Ballot{choice("v1", "A"), choice("v2", "B"), choice("v3", "B")},
			winner:  "B", reason: "B wins with 2 votes", counted: 3,
			totals: map[string]string{"A": "1", "B": "2", "C": "0"}, ranking: []string{"B", "A", "C"}},
		{name: "tie is deferred by default", ballots: ab, counted: 2, abstained: 1,
			tied: []string{"A", "B"}, reason: "tie between A and B, deferred"},
		{name: "tie broken at random", ballots: ab, counted: 2, abstained: 1,
			opt:  vote.Options{Tie: vote.TieRandom, Seed: 7},
			tied: []string{"A", "B"}, winner: "A", reason: "tie between A and B, broken at random (seed 7)"},
		{name: "tie broken at random, other seed", ballots: ab, counted: 2, abstained: 1,
			opt:  vote.Options{Tie: vote.TieRandom, Seed: 1},
			tied: []string{"A", "B"}, winner: "B", reason: "tie between A and B, broken at random (seed 1)"},
		{name: "tie keeps the incumbent", ballots: ab, counted: 2, abstained: 1, incumbent: "B",
			opt:  vote.Options{Tie: vote.TieIncumbent},
			tied: []string{"A", "B"}, winner: "B", reason: "tie between A and B, incumbent B kept"},
		{name: "tie without the incumbent is deferred", ballots: ab, counted: 2, abstained: 1, incumbent: "C",
			opt:  vote.Options{Tie: vote.TieIncumbent},
			tied: []string{"A", "B"}, reason: "tie between A and B, deferred (incumbent C is not among them)"},
		{name: "tie with no incumbent is deferred", ballots: ab, counted: 2, abstained: 1,
			opt:  vote.Options{Tie: vote.TieIncumbent},
			tied: []string{"A", "B"}, reason: "tie between A and B, deferred (no incumbent)"},
		{name: "three-way tie lists the tied in candidate order",
			ballots: []vote.Ballot{choice("v1", "C"), choice("v2", "B"), choice("v3", "A")}, counted: 3,
			tied: []string{"A", "B", "C"}, reason: "tie between A, B and C, deferred"},
		{name: "a ballot without a voter is rejected",
			ballots: []vote.Ballot{choice("", "A"), choice("v1", "B"), choice(" ", "A")},
			winner:  "B", reason: "B wins with 1 vote", counted: 1,
			rejected: []vote.Rejection{{Voter: "", Reason: "ballot has no voter name"}, {Voter: " ", Reason: "ballot has no voter name"}}},
		{name: "an invalid ballot does not stop the rest deciding",
			ballots: []vote.Ballot{choice("v1", "B"), scores("v2", map[string]int{"A": 1})}, counted: 1,
			winner: "B", reason: "B wins with 1 vote",
			rejected: []vote.Rejection{{Voter: "v2", Reason: "plurality ballots need a choice, not scores"}}},
		{name: "no votes gives none even with a tie policy", opt: vote.Options{Tie: vote.TieRandom},
			ballots: []vote.Ballot{abstain("v1")}, abstained: 1, reason: "no votes were counted"},
		{name: "an abstention supersedes an earlier vote",
			ballots: []vote.Ballot{choice("v1", "A"), choice("v2", "B"), choice("v3", "B"), abstain("v2")},
			winner:  "A", reason: "tie between A and B, broken at random (seed 0)", tied: []string{"A", "B"},
			opt: vote.Options{Tie: vote.TieRandom}, counted: 2, abstained: 1, superseded: 1},
	})
}

func TestTallyRated(t *testing.T) {
	runTallyCases(t, vote.Rated, []tallyCase{
		{name: "highest total wins",
			ballots: []vote.Ballot{
				scores("v1", map[string]int{"A": 5, "B": 3, "C": 1}),
				scores("v2", map[string]int{"A": 4, "B": 5, "C": 1})},
			winner: "A", reason: "A wins with 9 points", counted: 2,
			totals: map[string]string{"A": "9", "B": "8", "C": "2"}, ranking: []string{"A", "B", "C"}},
		{name: "tie is deferred",
			ballots: []vote.Ballot{
				scores("v1", map[string]int{"A": 5, "B": 4, "C": 1}),
				scores("v2", map[string]int{"A": 4, "B": 5, "C": 1})},
			tied: []string{"A", "B"}, reason: "tie between A and B, deferred", counted: 2},
		{name: "invalid ballots are rejected and the rest decide",
			ballots: []vote.Ballot{
				scores("v1", map[string]int{"A": 1, "B": 2, "C": 3}),
				scores("v2", map[string]int{"A": 6, "B": 2, "C": 3}),
				scores("v3", map[string]int{"A": 5, "B": 2}),
				choice("v4", "A")},
			winner: "C", reason: "C wins with 3 points", counted: 1,
			rejected: []vote.Rejection{
				{Voter: "v2", Reason: "score 6 for A is out of range 1..5"},
				{Voter: "v3", Reason: "missing score for C"},
				{Voter: "v4", Reason: "rated ballots need scores, not a choice"}}},
		{name: "no votes gives none", reason: "no votes were counted"},
	})
}

func TestTallyRanked(t *testing.T) {
	runTallyCases(t, vote.Ranked, []tallyCase{
		{name: "harmonic points, partial rankings allowed",
			ballots: []vote.Ballot{ranking("v1", "A", "B", "C"), ranking("v2", "B", "A"), ranking("v3", "A")},
			winner:  "A", reason: "A wins with 2.5 points", counted: 3,
			totals: map[string]string{"A": "5/2", "B": "3/2", "C": "1/3"}},
		{name: "exact tie is a tie",
			ballots: []vote.Ballot{ranking("v1", "A", "B", "C"), ranking("v2", "B", "A", "C")},
			tied:    []string{"A", "B"}, reason: "tie between A and B, deferred", counted: 2,
			totals: map[string]string{"A": "3/2", "B": "3/2", "C": "2/3"}},
		{name: "repeated rank is rejected",
			ballots: []vote.Ballot{ranking("v1", "C"), ranking("v2", "A", "A")},
			winner:  "C", reason: "C wins with 1 point", counted: 1,
			rejected: []vote.Rejection{{Voter: "v2", Reason: "candidate A ranked twice"}}},
	})
}

func TestTallyCumulative(t *testing.T) {
	runTallyCases(t, vote.Cumulative, []tallyCase{
		{name: "highest total wins",
			ballots: []vote.Ballot{points("v1", map[string]int{"A": 3}), points("v2", map[string]int{"B": 2, "C": 1})},
			winner:  "A", reason: "A wins with 3 points", counted: 2,
			totals: map[string]string{"A": "3", "B": "2", "C": "1"}},
		{name: "tie is deferred",
			ballots: []vote.Ballot{points("v1", map[string]int{"A": 3}), points("v2", map[string]int{"C": 3})},
			tied:    []string{"A", "C"}, reason: "tie between A and C, deferred", counted: 2},
		{name: "no points at all gives none", opt: vote.Options{Tie: vote.TieRandom},
			ballots: []vote.Ballot{points("v1", map[string]int{"A": 0})},
			reason:  "no candidate received any points", counted: 1},
		{name: "over budget and negative points are rejected",
			ballots: []vote.Ballot{
				points("v1", map[string]int{"A": 3, "B": 1}),
				points("v2", map[string]int{"A": -1, "B": 4}),
				points("v3", map[string]int{"B": 1})},
			winner: "B", reason: "B wins with 1 point", counted: 1,
			rejected: []vote.Rejection{
				{Voter: "v1", Reason: "points total 4 exceeds the budget of 3"},
				{Voter: "v2", Reason: "negative points for A"}}},
	})
}

func TestTallyBorda(t *testing.T) {
	runTallyCases(t, vote.Borda, []tallyCase{
		{name: "ranked list by total, top wins",
			ballots: []vote.Ballot{ranking("v1", "A", "B", "C"), ranking("v2", "B", "A", "C"), ranking("v3", "A", "C", "B")},
			winner:  "A", reason: "A wins with 8 points", counted: 3,
			totals: map[string]string{"A": "8", "B": "6", "C": "4"}, ranking: []string{"A", "B", "C"}},
		{name: "tie keeps the incumbent", incumbent: "B", opt: vote.Options{Tie: vote.TieIncumbent},
			ballots: []vote.Ballot{ranking("v1", "A", "B", "C"), ranking("v2", "B", "A", "C")},
			tied:    []string{"A", "B"}, winner: "B", reason: "tie between A and B, incumbent B kept", counted: 2,
			ranking: []string{"A", "B", "C"}},
		{name: "partial order is rejected",
			ballots: []vote.Ballot{ranking("v1", "C", "B", "A"), ranking("v2", "A", "B")},
			winner:  "C", reason: "C wins with 3 points", counted: 1,
			rejected: []vote.Rejection{{Voter: "v2", Reason: "borda ranking is missing C: order all 3 candidates"}}},
	})
}

func TestTallyApproval(t *testing.T) {
	runTallyCases(t, vote.Approval, []tallyCase{
		{name: "most approvals wins",
			ballots: []vote.Ballot{approve("v1", "A", "B"), approve("v2", "B"), approve("v3")},
			winner:  "B", reason: "B wins with 2 approvals", counted: 3,
			totals: map[string]string{"A": "1", "B": "2", "C": "0"}},
		{name: "tie is deferred",
			ballots: []vote.Ballot{approve("v1", "A", "C"), approve("v2", "C", "A")},
			tied:    []string{"A", "C"}, reason: "tie between A and C, deferred", counted: 2},
		{name: "approving nobody gives none",
			ballots: []vote.Ballot{approve("v1"), {Voter: "v2", Approve: []string{}}},
			reason:  "no candidate received any approvals", counted: 2},
		{name: "duplicate approval is rejected",
			ballots: []vote.Ballot{approve("v1", "A", "A"), approve("v2", "C")},
			winner:  "C", reason: "C wins with 1 approval", counted: 1,
			rejected: []vote.Rejection{{Voter: "v1", Reason: "candidate A approved twice"}}},
	})
}

func TestTallyMalformedProfile(t *testing.T) {
	ok := vote.Profile{Candidates: abc}
	tests := []struct {
		name string
		rule vote.Rule
		p    vote.Profile
		opt  vote.Options
		want string
	}{
		{"no candidates", vote.Plurality, vote.Profile{}, vote.Options{}, "tally: profile has no candidates"},
		{"duplicate candidate", vote.Plurality, vote.Profile{Candidates: []string{"A", "B", "A"}}, vote.Options{}, `tally: duplicate candidate "A"`},
		{"blank candidate", vote.Plurality, vote.Profile{Candidates: []string{"A", " "}}, vote.Options{}, "tally: candidate 2 has a blank name"},
		{"negative participants", vote.Plurality, vote.Profile{Participants: -1, Candidates: abc}, vote.Options{}, "tally: participants must not be negative, got -1"},
		{"unknown rule", vote.Rule("dictator"), ok, vote.Options{}, `tally: unknown rule "dictator" (valid: unanimous, majority, plurality, rated, ranked, cumulative, borda, approval, irv, copeland, schulze)`},
		{"unknown tie policy", vote.Plurality, ok, vote.Options{Tie: "coin"}, `tally: unknown tie policy "coin" (valid: defer, random, incumbent)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := vote.Tally(tt.rule, tt.p, tt.opt)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Tally error = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestTallyEveryCandidateHasATotal(t *testing.T) {
	for _, rule := range vote.Rules() {
		res, err := vote.Tally(rule, vote.Profile{Candidates: abc}, vote.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Totals) != 3 || len(res.Ranking) != 3 || res.Winner != "" {
			t.Errorf("%s: empty profile gave %+v", rule, res)
		}
		if !strings.HasPrefix(res.Reason, "no votes") {
			t.Errorf("%s: reason %q", rule, res.Reason)
		}
	}
}
