package exchange

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Task is the exchange economy as a table's task: participant i of the table
// is agent i of the economy, and a proposal's Data is a K x K allocation.
type Task struct {
	Econ   *Economy
	Preset Preset

	statements statementMemo // for UtilityAgent.listen
}

var (
	_ roundtable.StructuredTask = (*Task)(nil)
	_ roundtable.PrivateBriefer = (*Task)(nil)
	_ roundtable.Decoder        = (*Task)(nil)
	_ roundtable.Welfare        = (*Task)(nil)
)

// NewTask returns the economy of k agents with the given preference preset.
func NewTask(k int, preset Preset) (*Task, error) {
	e, err := New(k, preset)
	if err != nil {
		return nil, err
	}
	return &Task{Econ: e, Preset: preset}, nil
}

// FromSpec rebuilds the economy a table recorded in its task spec: the
// spec's "seats" parameter (else seats) agents with its "preset"
// preferences. The same spec gives the same economy, so a table rebuilt
// from its log after a restart, or analyzed later, plays and scores as it
// did.
func FromSpec(spec roundtable.TaskSpec, seats int) (*Task, error) {
	if v := spec.Params["seats"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 2 {
			return nil, fmt.Errorf("seats: %q is not a number of at least 2", v)
		}
		seats = n
	}
	return NewTask(seats, Preset(spec.Params["preset"]))
}

// Welfare implements roundtable.Welfare: U/U_max of the allocation in
// p's Data (unclipped: a decision can beat the numerical U_max by
// rounding).
func (t *Task) Welfare(p roundtable.Proposal) (float64, bool) {
	umax, _ := t.Econ.UMax()
	a, err := ParseAllocation(p.Data)
	if umax <= 0 || err != nil {
		return 0, false
	}
	return t.Econ.Total(a) / umax, true
}

// Seats is the number of participants the economy has utilities for.
func (t *Task) Seats() int { return t.Econ.K }

// Kind implements roundtable.Task.
func (t *Task) Kind() string { return "exchange" }

// Brief implements roundtable.Task. It states the rules of the economy but
// not the group's hidden goal.
func (t *Task) Brief() string {
	k := t.Econ.K
	return fmt.Sprintf(`Exchange economy. There are %d agents and %d goods, with %g units of each good to share out.
A proposal is an allocation: a %d x %d table whose row i lists, good by good, the amounts agent i receives
(agents in seating order, goods 1..%d). Amounts are non-negative and every column (good) must add up to exactly %g; write one row per agent,
e.g. %s.
Each agent knows only its own preferences; say what you value and listen to the others.`,
		k, k, t.Econ.Supply, k, k, k, t.Econ.Supply, example(k, t.Econ.Supply))
}

// PrivateBrief implements roundtable.PrivateBriefer: agent i's own utility.
func (t *Task) PrivateBrief(i int) string {
	if i < 0 || i >= t.Econ.K {
		return ""
	}
	var terms []string
	for k, w := range t.Econ.Theta[i] {
		terms = append(terms, fmt.Sprintf("a%d^%.4g", k+1, w))
	}
	return fmt.Sprintf("You are agent %d. Your utility is the product %s, where a_k is the amount of good k you receive "+
		"(it is 0 if you receive none of a good you value). You want it as high as possible.", i+1, strings.Join(terms, " * "))
}

// Normalize implements roundtable.Task: Data (or, failing that, Text) must
// hold a valid allocation; the result carries the canonical allocation and a
// readable text.
func (t *Task) Normalize(p roundtable.Proposal) (roundtable.Proposal, error) {
	raw := []byte(p.Data)
	if len(raw) == 0 {
		raw = []byte(p.Text)
	}
	a, err := ParseAllocation(raw)
	if err == nil {
		err = t.Econ.Validate(a)
	}
	if err != nil {
		return roundtable.Proposal{}, &roundtable.Error{Code: roundtable.Invalid, Message: "invalid allocation: " + err.Error(), Err: err}
	}
	a = t.round(a)
	data, err := json.Marshal(a)
	if err != nil {
		return roundtable.Proposal{}, fmt.Errorf("encode allocation: %w", err)
	}
	return roundtable.Proposal{Text: Describe(a), Data: data}, nil
}

// round keeps 6 decimals, the precision at which proposals are compared.
func (t *Task) round(a Allocation) Allocation {
	var out Allocation
	if err := json.Unmarshal([]byte(t.Econ.Canonical(a)), &out); err != nil || len(out) != len(a) {
		return a.Clone()
	}
	return out
}

// Key implements roundtable.Task.
func (t *Task) Key(p roundtable.Proposal) string {
	a, err := t.Allocation(p)
	if err != nil {
		return "invalid:" + string(p.Data)
	}
	return t.Econ.Canonical(a)
}

// Allocation decodes a normalised proposal.
func (t *Task) Allocation(p roundtable.Proposal) (Allocation, error) {
	if len(p.Data) == 0 {
		return nil, errors.New("proposal has no allocation")
	}
	return ParseAllocation(p.Data)
}

// Decode implements roundtable.Decoder: the proposal's Allocation, which
// callers share and must not modify.
func (t *Task) Decode(p roundtable.Proposal) (any, error) { return t.Allocation(p) }

// ProposalSchema implements roundtable.StructuredTask.
func (t *Task) ProposalSchema() (string, json.RawMessage) {
	k := t.Econ.K
	schema := fmt.Sprintf(`{"type":"object","properties":{"allocation":{"type":"array","minItems":%d,"maxItems":%d,`+
		`"description":"row i = the amounts of goods 1..%d that agent i receives; each column sums to %g",`+
		`"items":{"type":"array","minItems":%d,"maxItems":%d,"items":{"type":"number","minimum":0}}}},`+
		`"required":["allocation"],"additionalProperties":false}`, k, k, k, t.Econ.Supply, k, k)
	return "proposal_exchange", json.RawMessage(schema)
}

// Describe writes an allocation for people: "agent 1: 80, 10, 10 | ...".
func Describe(a Allocation) string {
	rows := make([]string, len(a))
	for i, row := range a {
		cells := make([]string, len(row))
		for k, x := range row {
			cells[k] = fmt.Sprintf("%.4g", x)
		}
		rows[i] = fmt.Sprintf("agent %d: %s", i+1, strings.Join(cells, ", "))
	}
	return strings.Join(rows, " | ")
}

// Measure computes the paper's metrics of a table from its state.
func (t *Task) Measure(s *roundtable.State) Metrics {
	var rounds []RoundOutcome
	var before Allocation
	for _, r := range s.Rounds {
		out := RoundOutcome{Decision: before, NoVote: r.Tally == nil}
		for _, p := range r.Proposals {
			if a, err := t.Allocation(p.Proposal); err == nil {
				out.Proposals = append(out.Proposals, ProposalRecord{Proposer: s.Index(p.By), Allocation: a, DecisionBefore: before})
			}
		}
		if r.Decision != nil {
			if a, err := t.Allocation(r.Decision.Proposal); err == nil {
				out.Decision = a
			}
		}
		before = out.Decision
		rounds = append(rounds, out)
	}
	return t.Econ.Measure(rounds)
}

// example writes the equal split in the plain row form ParseAllocation reads.
func example(k int, supply float64) string {
	row := make([]string, k)
	for i := range row {
		row[i] = strconv.FormatFloat(supply/float64(k), 'f', -1, 64)
		if len(row[i]) > 6 {
			row[i] = strconv.FormatFloat(supply/float64(k), 'f', 2, 64)
		}
	}
	rows := make([]string, k)
	for i := range rows {
		rows[i] = strings.Join(row, " ")
	}
	return strings.Join(rows, "; ")
}
