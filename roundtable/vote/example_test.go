package vote_test

import (
	"encoding/json"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// exampleProfile has one ballot in each format, so every rule counts one
// ballot, rejects four and sees one abstention.
const exampleProfile = `{"participants": 4, "candidates": ["A","B","C"], "incumbent": "A", "ballots": [{"voter":"v1","choice":"B"}, {"voter":"v2","abstain":true}, {"voter":"v3","scores":{"A":5,"B":3,"C":1}}, {"voter":"v4","ranking":["C","A","B"]}, {"voter":"v5","points":{"A":2,"C":1}}, {"voter":"v6","approve":["A","C"]}]}`

func ExampleTally() {
	p, err := vote.ParseProfile([]byte(exampleProfile))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, rule := range vote.Rules() {
		res, err := vote.Tally(rule, p, vote.Options{Tie: vote.TieIncumbent})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: winner %q: %s\n", rule, res.Winner, res.Reason)
	}
	// Output:
	// unanimous: winner "": no candidate was chosen by all 6 participants (1 abstained, 4 did not vote)
	// majority: winner "": no candidate has more than 3 of 6 votes
	// plurality: winner "B": B wins with 1 vote
	// rated: winner "A": A wins with 5 points
	// ranked: winner "C": C wins with 1 point
	// cumulative: winner "A": A wins with 2 points
	// borda: winner "C": C wins with 3 points
	// approval: winner "A": tie between A and C, incumbent A kept
	// irv: winner "C": C wins in round 1 with 1 of 1 continuing ballots
	// copeland: winner "C": C wins with 2 points head to head (1 per win, 1/2 per tie)
	// schulze: winner "C": C beats every other candidate by strongest path (Schulze, winning votes)
}

func ExampleResult_MarshalJSON() {
	p := vote.Profile{
		Candidates: []string{"A", "B", "C"},
		Ballots: []vote.Ballot{
			{Voter: "ann", Ranking: []string{"A", "B", "C"}},
			{Voter: "bob", Ranking: []string{"B", "C"}},
			{Voter: "cy", Ranking: []string{"C", "A", "C"}},
		},
	}
	res, _ := vote.Tally(vote.Ranked, p, vote.Options{})
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	// Output:
	// {"rule":"ranked","winner":"B","totals":{"A":1,"B":1.5,"C":0.833333},"tied":[],"ranking":["B","A","C"],"rejected":[{"voter":"cy","reason":"candidate C ranked twice"}],"counted":2,"abstained":0,"superseded":0,"reason":"B wins with 1.5 points"}
}
