package vote_test

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestDecimal(t *testing.T) {
	tests := map[string]string{
		"1/3": "0.333333", "2/3": "0.666667", "3/2": "1.5", "2": "2", "0": "0",
		"11/6": "1.833333", "1/1000000": "0.000001", "1/10000000": "0", "-1/3": "-0.333333",
		"-1/10000000": "0", "123456789/10": "12345678.9",
	}
	for in, want := range tests {
		r, _ := new(big.Rat).SetString(in)
		if got := vote.Decimal(r); got != want {
			t.Errorf("Decimal(%s) = %q, want %q", in, got, want)
		}
	}
	if got := vote.Decimal(nil); got != "0" {
		t.Errorf("Decimal(nil) = %q", got)
	}
}

func TestResultJSONNoWinner(t *testing.T) {
	res, err := vote.Tally(vote.Plurality, vote.Profile{Candidates: []string{"A", "B"}}, vote.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"rule":"plurality","winner":null,"totals":{"A":0,"B":0},"tied":[],"ranking":["A","B"],"rejected":[],"counted":0,"abstained":0,"superseded":0,"reason":"no votes were counted"}`
	if string(got) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}

func TestResultJSONRoundsAndTie(t *testing.T) {
	p := vote.Profile{Candidates: []string{"A", "B"}, Ballots: []vote.Ballot{ranking("v1", "A"), ranking("v2", "B"), {Voter: "v3", Choice: "A"}}}
	res, err := vote.Tally(vote.InstantRunoff, p, vote.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(res)
	want := `{"rule":"irv","winner":null,"totals":{"A":1,"B":1},"tied":["A","B"],"ranking":["A","B"],"rejected":[{"voter":"v3","reason":"irv ballots need a ranking, not a choice"}],"counted":2,"abstained":0,"superseded":0,"reason":"tie between A and B, deferred","rounds":[{"votes":{"A":1,"B":1},"exhausted":0,"eliminated":[]}]}`
	if string(got) != want {
		t.Errorf("JSON =\n%s\nwant\n%s", got, want)
	}
}
