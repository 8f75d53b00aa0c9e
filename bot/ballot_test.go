package bot_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestParseBallot(t *testing.T) {
	cases := []struct {
		rule vote.Rule
		text string
		want vote.Ballot
	}{
		{vote.Plurality, " b ", vote.Ballot{Choice: "B"}},
		{vote.Majority, "abstain", vote.Ballot{Abstain: true}},
		{vote.Rated, "A=5, b:2 C=1", vote.Ballot{Scores: map[string]int{"A": 5, "B": 2, "C": 1}}},
		{vote.Cumulative, "A=2 C=1", vote.Ballot{Points: map[string]int{"A": 2, "C": 1}}},
		{vote.Ranked, "C > a > B", vote.Ballot{Ranking: []string{"C", "A", "B"}}},
		{vote.Borda, "C, A, B", vote.Ballot{Ranking: []string{"C", "A", "B"}}},
		{vote.Approval, "A C", vote.Ballot{Approve: []string{"A", "C"}}},
		{vote.Approval, "approve none", vote.Ballot{Approve: []string{}}},
	}
	for _, c := range cases {
		got, err := bot.ParseBallot(c.rule, c.text)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseBallot(%s, %q) = %+v, %v; want %+v", c.rule, c.text, got, err, c.want)
		}
	}
}

// What Ballot.String writes, ParseBallot reads back: confirmations show
// people a ballot in the syntax they can type.
func TestBallotTextRoundTrips(t *testing.T) {
	for _, b := range []vote.Ballot{
		{Choice: "B"}, {Abstain: true}, {Ranking: []string{"C", "A"}},
		{Scores: map[string]int{"A": 5, "B": 1}}, {Points: map[string]int{"A": 3}},
		{Approve: []string{"A", "C"}}, {Approve: []string{}},
	} {
		r := vote.Plurality
		switch {
		case b.Ranking != nil:
			r = vote.Ranked
		case b.Scores != nil:
			r = vote.Rated
		case b.Points != nil:
			r = vote.Cumulative
		case b.Approve != nil:
			r = vote.Approval
		}
		got, err := bot.ParseBallot(r, b.String())
		if err != nil || !reflect.DeepEqual(got, b) {
			t.Errorf("%q read back as %+v, %v", b.String(), got, err)
		}
	}
}

func TestParseBallotErrorsSayWhatToWrite(t *testing.T) {
	for _, c := range []struct {
		rule       vote.Rule
		text, want string
	}{
		{vote.Plurality, "", "the ballot is empty"},
		{vote.Plurality, "A B", "name exactly one candidate"},
		{vote.Rated, "A=five", `cannot read "A=five"`},
		{vote.Rated, "A=1 a=2", "candidate A appears twice"},
	} {
		_, err := bot.ParseBallot(c.rule, c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseBallot(%s, %q): %v, want %q", c.rule, c.text, err, c.want)
		}
	}
}
