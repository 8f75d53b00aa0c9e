package mediation

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// SchemaName names the mediator's structured answer.
const SchemaName = "mediation_statement"

// statementSchema is the mediator's answer: one statement.
var statementSchema = json.RawMessage(`{"type":"object","properties":{"statement":{"type":"string"}},"required":["statement"],"additionalProperties":false}`)

// mediatorSystem is what the mediator is, first in every prompt so that
// provider prompt caches hit.
const mediatorSystem = "You are a mediator. A group of people wants one statement about a question that all of them can stand behind. " +
	"You never take a side and never add an opinion of your own: you find what the group's texts share, " +
	"say honestly where they differ, and propose a way forward that each of them could accept. " +
	"You do not know who wrote what, and you never refer to a person, an opinion or a critique by a number or a name. " +
	"Write in the first person plural (we), in plain words, three to six sentences. " +
	`Answer with JSON only: {"statement": "..."}.`

// Mediator is the language-model mediator of a mediator seat: it writes
// a draft from the round's opinions, or a revision of the decision from
// its critiques, reading them in an order drawn for its seat and round,
// without names.
type Mediator struct {
	LLM         agent.LLM
	Model       string   // "" the endpoint's
	Temperature *float64 // nil the endpoint's
}

var _ roundtable.Agent = (*Mediator)(nil)

// Act implements roundtable.Agent.
func (m *Mediator) Act(ctx context.Context, v roundtable.View) (roundtable.Action, error) {
	if !v.Self.Mediates() || v.Phase != roundtable.PhaseProposal {
		return roundtable.Skip{Reasoning: "the mediator only writes candidates"}, nil
	}
	texts, order := Read(v)
	if len(texts) == 0 && v.Decision != nil {
		return roundtable.Skip{Reasoning: "no critiques came in: the statement stands as it is"}, nil
	}
	req := agent.Request{Messages: []agent.ChatMessage{{Role: agent.RoleSystem, Content: mediatorSystem},
		{Role: agent.RoleUser, Content: Prompt(v, texts)}},
		Schema: &agent.Schema{Name: SchemaName, JSON: statementSchema}, Model: m.Model, Temperature: m.Temperature,
		Seed: v.Seed + int64(v.Index) + 1, User: v.Self.ID}
	resp, err := m.LLM.Complete(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("the mediator's model: %w", err)
	}
	text, err := statement(resp.Content)
	if err != nil {
		return nil, err
	}
	u := resp.Usage
	return roundtable.Propose{Proposal: roundtable.Proposal{Text: text}, Usage: &u,
		Reasoning: fmt.Sprintf("language-model mediator; read the %d texts in the order %v of the table's (no names)", len(texts), order)}, nil
}

// Read is what a mediator reads in the open round: the private texts
// addressed to it (Inputs), shuffled by a draw from the table's seed, its
// seat and the round, and the order drawn (1-based positions in table
// order), which the mediator records with its candidate.
func Read(v roundtable.View) ([]string, []int) {
	texts := Inputs(v)
	order := make([]int, len(texts))
	for i := range order {
		order[i] = i + 1
	}
	rng := protocol.Rand(v, fmt.Sprintf("read-%d", v.Round))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	out := make([]string, len(order))
	for i, k := range order {
		out[i] = texts[k-1]
	}
	return out, order
}

// Prompt is the mediator's request: the question, then the opinions (a
// draft) or the statement and its critiques (a revision), and which of
// the mediator's candidates it writes.
func Prompt(v roundtable.View, texts []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "The question: %s\n\n", Question(v))
	k, n := seatOf(v)
	if v.Decision == nil {
		b.WriteString("What each person wrote, privately, in a random order:\n")
		list(&b, texts)
		fmt.Fprintf(&b, "\nWrite candidate %d of %d for the group's statement. The other candidates are written separately, "+
			"so take your own angle on what could bring these views together.", k, n)
		return b.String()
	}
	fmt.Fprintf(&b, "The group chose this statement:\n%s\n\nEach person then wrote, privately, what it gets wrong or leaves out for them, in a random order:\n",
		strings.TrimSpace(v.Decision.Proposal.Text))
	list(&b, texts)
	fmt.Fprintf(&b, "\nWrite revision %d of %d of the statement: keep what the group already shares and answer the critiques, "+
		"so that more of the group can endorse it. The group will rank the statement as it is against the revisions.", k, n)
	return b.String()
}

// Question is what the table is about: the first line of its brief,
// without the text task's "Decide together: ".
func Question(v roundtable.View) string {
	q, _, _ := strings.Cut(strings.TrimSpace(v.Brief), "\n")
	return strings.TrimPrefix(q, "Decide together: ")
}

// list writes texts as a bulleted list, one line each.
func list(b *strings.Builder, texts []string) {
	if len(texts) == 0 {
		b.WriteString("- (nobody wrote anything in time)\n")
	}
	for _, t := range texts {
		fmt.Fprintf(b, "- %s\n", strings.Join(strings.Fields(t), " "))
	}
}

// seatOf is which of the table's mediators v's participant is, 1-based,
// and how many there are.
func seatOf(v roundtable.View) (int, int) {
	var ids []string
	for _, p := range v.Participants {
		if p.Mediates() {
			ids = append(ids, p.ID)
		}
	}
	return slices.Index(ids, v.Self.ID) + 1, len(ids)
}

// statement reads the mediator's answer: {"statement": "..."}, or, from
// an endpoint that ignored the schema, the text itself.
func statement(content string) (string, error) {
	var a struct {
		Statement string `json:"statement"`
	}
	text := strings.TrimSpace(content)
	if err := json.Unmarshal([]byte(text), &a); err == nil {
		text = strings.TrimSpace(a.Statement)
	}
	if text == "" {
		return "", fmt.Errorf("the mediator's model wrote an empty statement")
	}
	return text, nil
}
