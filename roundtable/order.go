package roundtable

import (
	"math/rand/v2"
	"slices"
)

// ParamOrder is the schedule parameter (Protocol.Params) that shuffles a
// vote's candidates for each voter when it is OrderShuffled: every voter
// sees them in an order of their own, drawn from the table's seed and
// recorded in the vote's PhaseOpened (Orders), so that no candidate gains
// from being listed first (docs/protocol.md#mediation). Ballots name
// candidates by ID, so a ballot counts the same whatever order its voter
// saw.
const ParamOrder = "order"

// OrderShuffled is ParamOrder's value for a per-voter shuffle.
const OrderShuffled = "shuffled"

// ParamQuorum is the schedule parameter (Protocol.Params) that sets a
// vote's quorum by the number of voters: QuorumHalf needs ballots from at
// least max(2, ⌈n/2⌉) of the n voters (the Habermas Machine's rule for a
// ranking step); below it the vote has no winner and its tally says why.
const ParamQuorum = "quorum"

// QuorumHalf is ParamQuorum's value for max(2, ⌈n/2⌉).
const QuorumHalf = "half"

// scheduleQuorum is the quorum the schedule sets for voters voters, or 0.
func (s *State) scheduleQuorum(voters int) int {
	if pr := s.Config.Protocol; pr != nil && pr.Params[ParamQuorum] == QuorumHalf {
		return max(2, (voters+1)/2)
	}
	return 0
}

// orders draws each voter's candidate order for a vote of round and step,
// or nil when the schedule does not shuffle. Draws depend on the seed, the
// table, the round, the step and the voter only.
func (s *State) orders(round, step int, cands []Candidate) map[string][]string {
	pr := s.Config.Protocol
	if pr == nil || pr.Params[ParamOrder] != OrderShuffled || len(cands) == 0 {
		return nil
	}
	out := map[string][]string{}
	for _, p := range s.Participants {
		if !p.Plays(PartVote) {
			continue
		}
		ids := make([]string, len(cands))
		for i, c := range cands {
			ids[i] = c.ID
		}
		rng := rand.New(rand.NewPCG(uint64(s.Config.Seed), stepStream(s.ID+"\x00"+p.ID, round, step)))
		rng.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		out[p.ID] = ids
	}
	return out
}

// CandidatesFor returns the open vote's candidates in the order voter id
// is shown them: its own recorded order when the schedule shuffles
// (ParamOrder), else the table's. A candidate missing from the recorded
// order (a voter who joined after the vote opened) follows in the table's
// order.
func (s *State) CandidatesFor(id string) []Candidate {
	r := s.Current()
	if r == nil || r.Orders[id] == nil {
		return slices.Clone(s.Candidates)
	}
	return InOrder(s.Candidates, r.Orders[id])
}

// InOrder returns cands ordered by the IDs in order, those not in it last
// in their own order.
func InOrder(cands []Candidate, order []string) []Candidate {
	out := slices.Clone(cands)
	rank := func(c Candidate) int {
		if i := slices.Index(order, c.ID); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(out, func(a, b Candidate) int { return rank(a) - rank(b) })
	return out
}
