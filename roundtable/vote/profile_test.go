package vote_test

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestParseProfileExample(t *testing.T) {
	p, err := vote.ParseProfile([]byte(exampleProfile))
	if err != nil {
		t.Fatal(err)
	}
	if p.Participants != 4 || len(p.Candidates) != 3 || p.Incumbent != "A" || len(p.Ballots) != 6 {
		t.Fatalf("parsed %+v", p)
	}
	if p.Voters() != 6 || p.N() != 6 {
		t.Errorf("Voters, N = %d, %d; want 6, 6", p.Voters(), p.N())
	}
	if b := p.Ballots[2]; b.Scores["A"] != 5 || b.Scores["C"] != 1 {
		t.Errorf("scores ballot parsed as %+v", b)
	}
}

func TestParseProfileErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"not JSON", `{`, "parse profile: unexpected EOF"},
		{"unknown field", `{"candidates":["A"],"quorum":3}`, `parse profile: json: unknown field "quorum"`},
		{"unknown ballot field", `{"candidates":["A"],"ballots":[{"voter":"v","rank":["A"]}]}`, `parse profile: json: unknown field "rank"`},
		{"wrong type", `{"candidates":"A"}`, "parse profile: json: cannot unmarshal"},
		{"trailing data", `{"candidates":["A"]} {}`, "parse profile: unexpected data after the profile object"},
		{"null", `null`, "parse profile: profile has no candidates"},
		{"no candidates", `{"candidates":[]}`, "parse profile: profile has no candidates"},
		{"duplicate candidate", `{"candidates":["A","A"]}`, `parse profile: duplicate candidate "A"`},
		{"negative participants", `{"participants":-2,"candidates":["A"]}`, "parse profile: participants must not be negative, got -2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := vote.ParseProfile([]byte(tt.in))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("ParseProfile error = %v, want prefix %q", err, tt.want)
			}
		})
	}
}

func TestProfileN(t *testing.T) {
	p := vote.Profile{Participants: 5, Ballots: []vote.Ballot{choice("a", "A"), choice("a", "B"), choice("", "A"), choice("b", "A")}}
	if p.Voters() != 2 || p.N() != 5 {
		t.Errorf("Voters, N = %d, %d; want 2, 5", p.Voters(), p.N())
	}
	p.Participants = 0
	if p.N() != 2 {
		t.Errorf("N = %d, want 2", p.N())
	}
}
