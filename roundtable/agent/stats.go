package agent

import (
	"cmp"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// FormatErrorCount is how many format errors one participant made in one
// phase kind under one rule.
type FormatErrorCount struct {
	Participant string           `json:"participant"`
	Phase       roundtable.Phase `json:"phase"`
	Rule        vote.Rule        `json:"rule"`
	Count       int              `json:"count"`
}

// FormatErrors counts a table's format errors per participant, phase and
// rule: failed actions of kind "format" (an agent's answer was invalid
// twice, or the moderator refused it) and rejected ballots (which the
// protocol counts as format errors too). The result is sorted by
// participant, then phase.
func FormatErrors(s *roundtable.State) []FormatErrorCount {
	counts := map[FormatErrorCount]int{}
	key := func(p string, ph roundtable.Phase) FormatErrorCount {
		return FormatErrorCount{Participant: p, Phase: ph, Rule: s.Config.Rule}
	}
	for _, r := range s.Rounds {
		for _, f := range r.Failures {
			if f.Kind == "format" {
				counts[key(f.Participant, f.Phase)]++
			}
		}
		for _, rej := range r.Rejected {
			counts[key(rej.Voter, roundtable.PhaseVote)]++
		}
	}
	out := make([]FormatErrorCount, 0, len(counts))
	for k, n := range counts {
		k.Count = n
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b FormatErrorCount) int {
		return cmp.Or(cmp.Compare(a.Participant, b.Participant), cmp.Compare(a.Phase, b.Phase))
	})
	return out
}
