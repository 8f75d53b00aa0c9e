package vote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Profile is everything a rule needs to pick a winner.
type Profile struct {
	// Participants is N, the table's size. Zero, or any value below the
	// number of distinct voters, means N is the number of distinct voters.
	Participants int `json:"participants"`
	// Candidates are the candidate IDs, unique and non-blank; their order
	// breaks display ties and orders Result.Tied.
	Candidates []string `json:"candidates"`
	// Incumbent is the current decision, used by TieIncumbent. It need not be
	// a candidate (then it never wins a tie).
	Incumbent string   `json:"incumbent,omitempty"`
	Ballots   []Ballot `json:"ballots"`
}

// ParseProfile decodes a JSON profile strictly (unknown fields and trailing
// data are errors) and validates it.
func ParseProfile(data []byte) (Profile, error) {
	var p Profile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Profile{}, fmt.Errorf("parse profile: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Profile{}, errors.New("parse profile: unexpected data after the profile object")
	}
	if err := p.Validate(); err != nil {
		return Profile{}, fmt.Errorf("parse profile: %w", err)
	}
	return p, nil
}

// Validate reports a malformed profile: no candidates, a blank or duplicate
// candidate, or a negative number of participants. Invalid ballots are not
// its concern: Tally rejects them one by one.
func (p Profile) Validate() error {
	if p.Participants < 0 {
		return fmt.Errorf("participants must not be negative, got %d", p.Participants)
	}
	if len(p.Candidates) == 0 {
		return errors.New("profile has no candidates")
	}
	seen := make(map[string]bool, len(p.Candidates))
	for i, c := range p.Candidates {
		if strings.TrimSpace(c) == "" {
			return fmt.Errorf("candidate %d has a blank name", i+1)
		}
		if seen[c] {
			return fmt.Errorf("duplicate candidate %q", c)
		}
		seen[c] = true
	}
	return nil
}

// Voters counts the distinct non-blank voter names among all ballots.
func (p Profile) Voters() int {
	seen := make(map[string]bool, len(p.Ballots))
	for _, b := range p.Ballots {
		if strings.TrimSpace(b.Voter) != "" {
			seen[b.Voter] = true
		}
	}
	return len(seen)
}

// N is the number of participants the rules count: the larger of
// Participants and Voters.
func (p Profile) N() int {
	return max(p.Participants, p.Voters())
}
