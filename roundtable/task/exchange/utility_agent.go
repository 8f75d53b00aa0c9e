package exchange

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// UtilityAgent is a rule-based participant of an exchange table: it acts by
// Strategy from its own utility and what the others said, with no model.
type UtilityAgent struct {
	Task *Task
}

var _ roundtable.Agent = (*UtilityAgent)(nil)

// Act implements roundtable.Agent.
func (u *UtilityAgent) Act(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	s := Strategy{Economy: u.Task.Econ, Self: v.Index, Seed: v.Seed, Name: v.Self.Name}
	if v.Index < 0 || v.Index >= u.Task.Econ.K {
		return nil, fmt.Errorf("seat %d has no utility in an economy of %d agents", v.Index+1, u.Task.Econ.K)
	}
	switch v.Phase {
	case roundtable.PhaseMessage:
		return roundtable.Say{Text: s.Statement(v.Round)}, nil
	case roundtable.PhaseProposal:
		return u.propose(s, v)
	case roundtable.PhaseVote:
		return u.vote(s, v)
	case roundtable.PhaseSurvey:
		if v.Scale != nil {
			return roundtable.NoOpinion(*v.Scale, "a rule-based trader acts on its utility and holds no view on the question"), nil
		}
	}
	return nil, fmt.Errorf("nothing to do in phase %s", v.Phase)
}

func (u *UtilityAgent) propose(s Strategy, v roundtable.View) (roundtable.Action, error) {
	a := s.Propose(v.Round, v.Rounds, u.listen(v), u.decision(v))
	data, err := json.Marshal(a)
	if err != nil {
		return nil, fmt.Errorf("encode proposal: %w", err)
	}
	return roundtable.Propose{Proposal: roundtable.Proposal{Data: data},
		Reasoning: fmt.Sprintf("round %d of %d: concede toward what the others said they value", v.Round, v.Rounds)}, nil
}

// listen reads the weights the other agents stated in their messages. The
// newest statement of each agent counts, so it reads from the latest round
// back and stops looking for an agent once it has heard it.
func (u *UtilityAgent) listen(v roundtable.View) map[int][]float64 {
	known := map[int][]float64{}
	read := func(msgs []roundtable.Message) {
		for j := len(msgs) - 1; j >= 0; j-- {
			m := msgs[j]
			i := indexOf(v.Participants, m.From)
			if _, heard := known[i]; heard || i < 0 || i == v.Index {
				continue
			}
			if w, ok := u.Task.statements.parse(m.Text, u.Task.Econ.K); ok {
				known[i] = w
			}
		}
	}
	read(v.Current.Messages)
	for r := len(v.History) - 1; r >= 0 && len(known) < len(v.Participants)-1; r-- {
		read(v.History[r].Messages)
	}
	return known
}

func (u *UtilityAgent) decision(v roundtable.View) Allocation {
	if v.Decision == nil {
		return nil
	}
	if a, ok := v.DecodedDecision.(Allocation); ok {
		return a
	}
	a, err := u.Task.Allocation(v.Decision.Proposal)
	if err != nil {
		return nil
	}
	return a
}

// vote reads the candidates the moderator decoded for the phase (View.Decoded),
// decoding only those it did not.
func (u *UtilityAgent) vote(s Strategy, v roundtable.View) (roundtable.Action, error) {
	ids := make([]string, len(v.Candidates))
	cands := make([]Allocation, len(v.Candidates))
	for i, c := range v.Candidates {
		a, ok := decodedAt(v.Decoded, i)
		if !ok {
			var err error
			if a, err = u.Task.Allocation(c.Proposal); err != nil {
				return nil, fmt.Errorf("candidate %s: %w", c.ID, err)
			}
		}
		ids[i], cands[i] = c.ID, a
	}
	return roundtable.Cast{Ballot: ballot(s, v.Rule, ids, cands, u.decision(v))}, nil
}

func decodedAt(decoded []any, i int) (Allocation, bool) {
	if i >= len(decoded) {
		return nil, false
	}
	a, ok := decoded[i].(Allocation)
	return a, ok
}

// ballot fills in the rule's ballot from the agent's utilities.
func ballot(s Strategy, rule vote.Rule, ids []string, cands []Allocation, decision Allocation) vote.Ballot {
	switch rule.Format() {
	case vote.FormatScores:
		return vote.Ballot{Scores: byID(ids, s.Scores(cands))}
	case vote.FormatRanking:
		return vote.Ballot{Ranking: pick(ids, s.Ranking(cands))}
	case vote.FormatPoints:
		return vote.Ballot{Points: byID(ids, s.Points(cands))}
	case vote.FormatApprove:
		return vote.Ballot{Approve: pick(ids, s.Approve(cands, decision))}
	}
	i := s.Choose(cands, decision)
	if i < 0 {
		return vote.Ballot{Abstain: true}
	}
	return vote.Ballot{Choice: ids[i]}
}

func byID(ids []string, vals []int) map[string]int {
	m := make(map[string]int, len(ids))
	for i, id := range ids {
		m[id] = vals[i]
	}
	return m
}

func pick(ids []string, idx []int) []string {
	out := make([]string, 0, len(idx))
	for _, i := range idx {
		out = append(out, ids[i])
	}
	return out
}

func indexOf(ps []roundtable.Participant, id string) int {
	for i, p := range ps {
		if p.ID == id {
			return i
		}
	}
	return -1
}
