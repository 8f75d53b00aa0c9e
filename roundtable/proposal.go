package roundtable

import (
	"encoding/json"
	"strings"
	"unicode"
)

// Proposal is a candidate solution. Text is what people read; Data holds the
// structured value of tasks whose proposals are not free text (an exchange
// allocation, a rating).
type Proposal struct {
	Text string          `json:"text"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Candidate is one entry of a vote: a distinct proposal, who put it forward,
// and whether it is the current decision.
type Candidate struct {
	ID        string   `json:"id"`
	Proposal  Proposal `json:"proposal"`
	Key       string   `json:"key"`
	Proposers []string `json:"proposers,omitempty"`
	Incumbent bool     `json:"incumbent,omitempty"`
}

// CanonicalText is the identity of free-text proposals: trimmed,
// whitespace-collapsed and case-folded.
func CanonicalText(s string) string {
	return strings.ToLower(strings.Join(strings.FieldsFunc(s, unicode.IsSpace), " "))
}

// CandidateID returns the letter label of the i-th candidate: A..Z, AA, AB, ...
func CandidateID(i int) string {
	var b []byte
	for i++; i > 0; i = (i - 1) / 26 {
		b = append([]byte{byte('A' + (i-1)%26)}, b...)
	}
	return string(b)
}
