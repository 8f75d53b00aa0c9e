package panel

import (
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// SourceVocabulary marks a mental model made by Generate or Restate.
const SourceVocabulary = "offline-vocabulary"

// shownCriteria is how many criteria an offline model states.
const shownCriteria = 3

// roleEntry is one kind of role of the built-in vocabulary.
type roleEntry struct {
	keys       []string // words of a role that select the entry
	focus      string
	priorities string
	criteria   []string // most important first
}

// vocabulary is the small built-in role vocabulary of the offline
// generator; a role matching none gets generic.
var vocabulary = []roleEntry{
	{[]string{"cfo", "finance", "financial", "accountant", "controller", "treasurer"}, "budgets, financial planning and risk",
		"Keep costs in check and spend where the return is clear.",
		[]string{"cost awareness and budget discipline", "financial risk management", "measurable return on past projects", "accurate reporting and compliance", "commercial judgement"}},
	{[]string{"engineer", "engineering", "cto", "technical", "developer", "software", "architect", "technology"}, "building and running technical systems",
		"Ship reliable systems and grow a strong engineering team.",
		[]string{"technical depth in systems they built", "track record of shipping and scaling", "code quality and reliability", "leading engineering teams", "learning new technology quickly"}},
	{[]string{"plant", "operations", "production", "logistics", "supply", "factory", "site"}, "daily operations, safety and output",
		"Run a safe plant that meets its production targets.",
		[]string{"hands-on operations experience", "safety and process discipline", "managing shifts and people on the floor", "equipment and maintenance knowledge", "meeting production targets"}},
	{[]string{"hr", "people", "recruiter", "recruiting", "talent", "human"}, "hiring, people and culture",
		"Hire people who stay, grow and work well with others.",
		[]string{"communication and teamwork", "fit with the team's values", "motivation and career growth", "risk of leaving early", "handling conflict"}},
	{[]string{"sales", "marketing", "customer", "growth", "commercial", "account"}, "customers, markets and revenue",
		"Win and keep customers.",
		[]string{"customer focus", "revenue they brought in", "negotiation and persuasion", "understanding of the market", "building client relationships"}},
	{[]string{"data", "analyst", "scientist", "research", "researcher", "analytics"}, "data, analysis and evidence",
		"Decide from evidence and keep data trustworthy.",
		[]string{"data quality and pipelines", "statistical and analytical skill", "tools such as SQL and Python", "turning analysis into decisions", "documentation and reproducibility"}},
	{[]string{"legal", "counsel", "lawyer", "compliance", "regulatory"}, "law, contracts and compliance",
		"Keep the organisation within the law and out of disputes.",
		[]string{"regulatory knowledge", "contract experience", "judgement under risk", "integrity and confidentiality", "clear written communication"}},
}

var generic = roleEntry{nil, "the needs of the organisation",
	"Choose what serves the organisation best.",
	[]string{"relevant experience", "evidence of results", "communication", "fit with the role's needs", "reliability"}}

// entryFor is the vocabulary entry of a role: the first whose key is a
// word of the role, else generic.
func entryFor(role string) roleEntry {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(role), func(r rune) bool { return !('a' <= r && r <= 'z') }) {
		words[w] = true
	}
	for _, e := range vocabulary {
		for _, k := range e.keys {
			if words[k] {
				return e
			}
		}
	}
	return generic
}

// Generate is the offline mental model of self of a role: a description,
// priorities and the role's first evaluation criteria, from the built-in
// vocabulary. It is deterministic and labelled SourceVocabulary.
func Generate(role string) roundtable.SelfModel {
	return Restate(role, nil)
}

// Restate is the offline model restated after hearing texts: the same
// description, and the criteria of the role most salient in texts (the
// most of their words of four letters or more heard; ties keep the
// vocabulary's order), the foremost named in the priorities. With nothing
// heard it is Generate's model.
func Restate(role string, heard []string) roundtable.SelfModel {
	e := entryFor(role)
	if strings.TrimSpace(role) == "" {
		role = "Panel member"
	}
	crit := bySalience(e.criteria, heard)[:min(shownCriteria, len(e.criteria))]
	return roundtable.SelfModel{
		Description: fmt.Sprintf("%s, experienced in %s.", role, e.focus),
		Priorities:  fmt.Sprintf("%s Foremost now: %s.", e.priorities, crit[0]),
		Criteria:    crit,
		Source:      SourceVocabulary,
	}
}

// bySalience orders criteria by how many of their words occur in texts.
func bySalience(criteria, texts []string) []string {
	heard := map[string]int{}
	for _, t := range texts {
		for _, w := range contentWords(t) {
			heard[w]++
		}
	}
	score := make(map[string]int, len(criteria))
	for _, c := range criteria {
		for _, w := range contentWords(c) {
			score[c] += heard[w]
		}
	}
	out := append([]string(nil), criteria...)
	for i := 1; i < len(out); i++ { // insertion sort: stable
		for j := i; j > 0 && score[out[j]] > score[out[j-1]]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
