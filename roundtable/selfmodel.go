package roundtable

import (
	"fmt"
	"slices"
	"strings"
)

// SelfModel is a participant's mental model of self (Sentimental Agents,
// section 5.2): who it is, what it wants and how it judges, generated from
// its role. A panel agent restates it with every message (Say.Self), so
// the log holds one per round and its drift can be measured; like private
// reasoning it is its author's alone, and researchers' after the table
// ended.
type SelfModel struct {
	Description string   `json:"description"`
	Priorities  string   `json:"priorities"`
	Criteria    []string `json:"criteria"`
	// Source says how it was made: "llm" (asked of the agent's model) or
	// "offline-vocabulary" (the deterministic generator of roundtable/panel).
	Source string `json:"source,omitempty"`
}

// Text is the model as one paragraph, as agents are shown it and as it is
// embedded to measure drift.
func (m SelfModel) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Description: %s\nPriorities: %s\nEvaluation criteria:\n", m.Description, m.Priorities)
	for _, c := range m.Criteria {
		fmt.Fprintf(&b, "- %s\n", c)
	}
	return b.String()
}

// maxCriteria bounds a model's criteria list.
const maxCriteria = 20

// Check reports what makes m unusable: an empty description, priorities
// or criteria list, too many criteria, or more text than a message holds.
func (m SelfModel) Check() error {
	switch {
	case strings.TrimSpace(m.Description) == "":
		return Errorf(Invalid, "mental model: the description is empty")
	case strings.TrimSpace(m.Priorities) == "":
		return Errorf(Invalid, "mental model: the priorities are empty")
	case len(m.Criteria) == 0:
		return Errorf(Invalid, "mental model: no evaluation criteria")
	case len(m.Criteria) > maxCriteria:
		return Errorf(Invalid, "mental model: %d criteria, the limit is %d", len(m.Criteria), maxCriteria)
	}
	if err := CheckText(m.Text()); err != nil {
		return Errorf(Invalid, "mental model: %s", ErrorMessage(err))
	}
	return nil
}

// clone is a deep copy of m (nil for nil).
func (m *SelfModel) clone() *SelfModel {
	if m == nil {
		return nil
	}
	c := *m
	c.Criteria = slices.Clone(m.Criteria)
	return &c
}
