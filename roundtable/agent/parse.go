package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// extractJSON returns the JSON object in a model's answer, tolerating code
// fences and text around it.
func extractJSON(content string) ([]byte, error) {
	s := strings.TrimSpace(content)
	if i := strings.Index(s, "```"); i >= 0 {
		s = s[i+3:]
		s = strings.TrimPrefix(strings.TrimPrefix(s, "json"), "JSON")
		if j := strings.Index(s, "```"); j >= 0 {
			s = s[:j]
		}
	}
	start, end := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if start < 0 || end < start {
		return nil, errors.New("the answer contains no JSON object")
	}
	return []byte(s[start : end+1]), nil
}

// decode parses the JSON object in content into v.
func decode(content string, v any) error {
	b, err := extractJSON(content)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("the answer is not valid JSON for this request: %w", err)
	}
	return nil
}

type messageAnswer struct {
	To   []string `json:"to"`
	Text string   `json:"text"`
}

// parseMessage turns a message answer into a Say, mapping recipient names
// (or IDs) to participant IDs.
func parseMessage(v roundtable.View, content string) (roundtable.Action, error) {
	var a messageAnswer
	if err := decode(content, &a); err != nil {
		return nil, err
	}
	text := strings.TrimSpace(a.Text)
	if err := roundtable.CheckText(text); err != nil {
		return nil, errors.New(roundtable.ErrorMessage(err))
	}
	to, err := recipients(v, a.To)
	if err != nil {
		return nil, err
	}
	return roundtable.Say{To: to, Text: text}, nil
}

// recipients resolves names to IDs. Addressing oneself is dropped, and
// addressing every other participant is the same as addressing everyone.
func recipients(v roundtable.View, names []string) ([]string, error) {
	var ids []string
	for _, n := range names {
		id, ok := participantID(v, n)
		if !ok {
			if isEveryone(n) {
				return nil, nil
			}
			return nil, fmt.Errorf("%q is not a participant; address some of %s, or leave \"to\" empty for everyone",
				n, strings.Join(otherNames(v), ", "))
		}
		if id != v.Self.ID && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == len(otherNames(v)) {
		return nil, nil
	}
	return ids, nil
}

func participantID(v roundtable.View, name string) (string, bool) {
	name = strings.TrimPrefix(strings.TrimSpace(name), "@")
	for _, p := range v.Participants {
		if strings.EqualFold(p.Name, name) || p.ID == name {
			return p.ID, true
		}
	}
	return "", false
}

func isEveryone(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "everyone", "all", "@everyone", "@all":
		return true
	}
	return false
}

type proposalAnswer struct {
	Reasoning string          `json:"reasoning"`
	Skip      bool            `json:"skip"`
	Proposal  json.RawMessage `json:"proposal"`
}

// parseProposal turns a proposal answer into a Skip or a normalised Propose.
func parseProposal(task roundtable.Task, content string) (roundtable.Action, error) {
	var a proposalAnswer
	if err := decode(content, &a); err != nil {
		return nil, err
	}
	if a.Skip {
		return roundtable.Skip{Reasoning: a.Reasoning}, nil
	}
	p, err := proposalValue(task, a.Proposal)
	if err != nil {
		return nil, err
	}
	p, err = task.Normalize(p)
	if err != nil {
		return nil, fmt.Errorf("the proposal is invalid: %s", roundtable.ErrorMessage(err))
	}
	return roundtable.Propose{Proposal: p, Reasoning: a.Reasoning}, nil
}

func proposalValue(task roundtable.Task, raw json.RawMessage) (roundtable.Proposal, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return roundtable.Proposal{}, errors.New(`"proposal" is missing; propose something or set "skip" to true`)
	}
	if _, ok := task.(roundtable.StructuredTask); ok {
		return roundtable.Proposal{Data: raw}, nil
	}
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		return roundtable.Proposal{}, errors.New(`"proposal" must be a string`)
	}
	return roundtable.Proposal{Text: text}, nil
}

type ballotAnswer struct {
	Reasoning string         `json:"reasoning"`
	Abstain   bool           `json:"abstain"`
	Choice    string         `json:"choice"`
	Scores    map[string]int `json:"scores"`
	Ranking   []string       `json:"ranking"`
	Points    map[string]int `json:"points"`
	Approve   []string       `json:"approve"`
}

// parseBallot turns a vote answer into a Cast that passes the rule's check.
func parseBallot(v roundtable.View, content string) (roundtable.Action, error) {
	var a ballotAnswer
	if err := decode(content, &a); err != nil {
		return nil, err
	}
	// The explanation the schema asks for goes with the ballot: sealed
	// with it, and shown when the vote closes.
	b := vote.Ballot{Voter: v.Self.ID, Abstain: a.Abstain, Reason: strings.TrimSpace(a.Reasoning)}
	if !a.Abstain {
		switch v.Rule.Format() {
		case vote.FormatChoice:
			b.Choice = a.Choice
		case vote.FormatScores:
			b.Scores = a.Scores
		case vote.FormatRanking:
			b.Ranking = a.Ranking
		case vote.FormatPoints:
			b.Points = a.Points
		case vote.FormatApprove:
			b.Approve = a.Approve
		}
	}
	if err := v.Rule.Check(b, candidateIDs(v)); err != nil {
		return nil, fmt.Errorf("the ballot is invalid: %w", err)
	}
	return roundtable.Cast{Ballot: b}, nil
}

type memoryAnswer struct {
	Memory string `json:"memory"`
}

func parseMemory(content string) (string, error) {
	var a memoryAnswer
	if err := decode(content, &a); err != nil {
		return "", err
	}
	m := strings.TrimSpace(a.Memory)
	if m == "" {
		return "", errors.New(`"memory" is empty`)
	}
	return m, nil
}

func candidateIDs(v roundtable.View) []string {
	ids := make([]string, len(v.Candidates))
	for i, c := range v.Candidates {
		ids[i] = c.ID
	}
	return ids
}

func otherNames(v roundtable.View) []string {
	var names []string
	for _, p := range v.Participants {
		if p.ID != v.Self.ID {
			names = append(names, p.Name)
		}
	}
	return names
}
