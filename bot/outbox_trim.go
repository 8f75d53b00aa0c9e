package bot

import "github.com/roundtable-ai/roundtable/roundtable"

// The planner's shadow state needs only the round in progress: every
// event it folds belongs to that round (the moderator refuses anything
// else), and every post it renders is about that round or the table as a
// whole. The records of rounds that ended before the previous one are
// therefore kept as empty stubs (their numbers only), and the shadow keeps
// no action keys (the moderator deduplicates, not the planner), so a
// planner costs the same at round 100 as at round 1 rather than a second
// copy of the table's history.

// plannerCopy returns the planner's copy of snap: a deep copy of
// everything but the ended rounds, which are stubs, and the keys.
func plannerCopy(snap *roundtable.State) *roundtable.State {
	if snap == nil {
		return nil
	}
	keep := trimmedRounds(snap)
	head := *snap
	head.Rounds, head.Keys = snap.Rounds[keep:], nil
	c := head.Clone()
	rounds := make([]roundtable.RoundRecord, keep, len(snap.Rounds)+4) // room for a few rounds: growing would double it
	for i := range rounds {
		rounds[i] = roundtable.RoundRecord{Round: i + 1}
	}
	c.Rounds = append(rounds, c.Rounds...)
	if len(c.Rounds) == 0 {
		c.Rounds = nil
	}
	return c
}

// trimmedRounds is how many leading rounds of s the planner keeps as
// stubs: those before the previous round.
func trimmedRounds(s *roundtable.State) int {
	return min(max(s.Round-2, 0), len(s.Rounds))
}

// trim turns the rounds that ended before the previous one into stubs
// and drops the keys; called after each fold.
func (p *planner) trim() {
	s := p.state
	if len(s.Keys) > 0 {
		s.Keys = nil
	}
	keep := trimmedRounds(s)
	for i := p.stubbed; i < keep; i++ {
		s.Rounds[i] = roundtable.RoundRecord{Round: i + 1}
	}
	p.stubbed = max(p.stubbed, keep)
}
