package vote_test

import (
	"encoding/json"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func FuzzParseProfile(f *testing.F) {
	f.Add([]byte(exampleProfile))
	f.Add([]byte(`{"candidates":["A","B"],"ballots":[{"voter":"x","ranking":["B","A"]},{"voter":"x","abstain":true},{"voter":"","choice":"A"}]}`))
	f.Add([]byte(`{"participants":2,"candidates":["A","B","C"],"ballots":[{"voter":"a","points":{"A":9223372036854775807,"B":1}},{"voter":"b","scores":{"A":-5,"B":5,"C":5}},{"voter":"c","approve":[]}]}`))
	f.Add([]byte(`{"candidates":["A"],"ballots":[{"voter":"a","choice":"A","ranking":["A","A"]}]}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := vote.ParseProfile(data)
		if err != nil {
			return
		}
		for _, rule := range vote.Rules() {
			for _, tie := range []vote.TiePolicy{vote.TieDefer, vote.TieRandom, vote.TieIncumbent} {
				res, err := vote.Tally(rule, p, vote.Options{Tie: tie, Seed: 1})
				if err != nil {
					t.Fatalf("Tally(%s) of a parsed profile: %v", rule, err)
				}
				checkInvariants(t, res, p)
				out, err := json.Marshal(res)
				if err != nil || !json.Valid(out) {
					t.Fatalf("MarshalJSON: %v: %s", err, out)
				}
			}
		}
	})
}
