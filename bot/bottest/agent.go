package bottest

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Scribe is the suite's bot agent: predictable, so tests can say what it
// did. It greets, proposes "Scribe's plan" and backs candidate A.
type Scribe struct{}

// Act implements roundtable.Agent.
func (Scribe) Act(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	switch v.Phase {
	case roundtable.PhaseMessage:
		return roundtable.Say{Text: fmt.Sprintf("Scribe here, round %d: let us keep it simple.", v.Round)}, nil
	case roundtable.PhasePrivate:
		return roundtable.Say{Text: "Scribe, privately: still simple."}, nil
	case roundtable.PhaseSurvey:
		vals := make([]float64, v.Scale.Values())
		for i := range vals {
			vals[i] = v.Scale.Max
		}
		return roundtable.Report{Values: vals}, nil
	case roundtable.PhaseProposal:
		if v.Own != nil {
			return roundtable.Skip{}, nil
		}
		return roundtable.Propose{Proposal: roundtable.Proposal{Text: "Scribe's plan"}, Reasoning: "it is short"}, nil
	}
	ids := make([]string, len(v.Candidates))
	for i, c := range v.Candidates {
		ids[i] = c.ID
	}
	return roundtable.Cast{Ballot: backFirst(v.Rule, ids)}, nil
}

func backFirst(rule vote.Rule, ids []string) vote.Ballot {
	switch rule.Format() {
	case vote.FormatScores:
		m := map[string]int{}
		for i, id := range ids {
			m[id] = 1
			if i == 0 {
				m[id] = 5
			}
		}
		return vote.Ballot{Scores: m}
	case vote.FormatRanking:
		return vote.Ballot{Ranking: ids}
	case vote.FormatPoints:
		return vote.Ballot{Points: map[string]int{ids[0]: len(ids)}}
	case vote.FormatApprove:
		return vote.Ballot{Approve: ids[:1]}
	}
	return vote.Ballot{Choice: ids[0]}
}
