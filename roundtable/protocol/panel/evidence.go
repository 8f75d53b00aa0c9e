package panel

import "github.com/roundtable-ai/roundtable/roundtable"

// evidenceChoices is how many of the best passages an offline judge
// cycles through, round by round.
const evidenceChoices = 3

// Evidence picks what an offline judge cites about an item in a round:
// the passages of the item's document ranked by how many words of the
// model's criteria they share (ties in document order), the one at
// position (round−1) mod 3 of the top three, and the criterion it shares
// most words with (the first on a tie). It returns "" for no passages.
func Evidence(m roundtable.SelfModel, passages []string, round int) (criterion, passage string) {
	if len(passages) == 0 || len(m.Criteria) == 0 {
		return "", ""
	}
	ranked := bySalience(passages, m.Criteria)
	passage = ranked[max(round-1, 0)%min(evidenceChoices, len(ranked))]
	criterion = bySalience(m.Criteria, []string{passage})[0]
	return criterion, passage
}
