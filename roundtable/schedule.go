package roundtable

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
)

// End reasons of protocols' stop rules.
const (
	EndAgreement   = string(StopAgreement)
	EndConvergence = string(StopConvergence)
)

// scheduleClosing is closing under a Protocol: close the open phase, decide
// a vote, and open the next step, the next round, the final steps or end.
func (t *Table) scheduleClosing(reason string) []Payload {
	s := t.state
	pays := []Payload{PhaseClosed{Round: s.Round, Phase: s.Phase, Reason: reason}}
	if next, ok := s.nextInTurn(); ok {
		o := t.opening(s.Round, s.Phase, nil)
		o.Step, o.Turn = s.Step, []string{next}
		return append(pays, o)
	}
	accepted := false
	if s.Phase == PhaseVote {
		d := t.decision()
		pays = append(pays, d)
		accepted = d.Accepted
	}
	return append(pays, t.advance(s.Round, s.Step+1, accepted, s.Decision)...)
}

// advance opens step of round, skipping a vote with nothing to vote on, or
// moves past the round's steps.
func (t *Table) advance(round, step int, accepted bool, decision *Candidate) []Payload {
	s := t.state
	pr := s.Config.Protocol
	n := len(pr.Round)
	if step == n {
		if end := t.stopReason(round, accepted); end == "" {
			return []Payload{t.openStep(round+1, 0, nil)}
		}
	}
	st, ok := pr.Step(step)
	if !ok {
		return []Payload{TableEnded{Output: decision, Reason: t.stopReason(round, accepted), Rounds: round}}
	}
	if st.Phase != PhaseVote {
		return []Payload{t.openStep(round, step, nil)}
	}
	if cands := s.candidates(t.task); len(cands) > 0 {
		return []Payload{t.openStep(round, step, cands)}
	}
	d := DecisionMade{Round: round, Decision: decision, Tally: Tally{Rule: s.Config.Rule, Totals: map[string]json.Number{},
		Participants: s.voters(), Reason: "no candidates: nobody has proposed anything yet"}}
	return append([]Payload{d}, t.advance(round, step+1, false, decision)...)
}

// stopReason says why the table ends after round, or "" to go on.
func (t *Table) stopReason(round int, accepted bool) string {
	s := t.state
	pr := s.Config.Protocol
	accepted = accepted || (round <= len(s.Rounds) && s.Rounds[round-1].Tally != nil && s.Rounds[round-1].Tally.Winner != "")
	switch {
	case pr.Stop.Kind == StopAgreement && t.agreed(round, accepted):
		return EndAgreement
	case pr.Stop.Kind == StopConvergence && Converged(s, round, pr.Stop.Tolerance):
		return EndConvergence
	case round >= s.Config.Rounds:
		return EndRounds
	}
	return ""
}

// agreed: a vote accepted a proposal, or, in a schedule without a vote,
// every survey answer of the round is the same.
func (t *Table) agreed(round int, accepted bool) bool {
	if t.state.Config.Protocol.Plays(PhaseVote) {
		return accepted
	}
	var first []float64
	for _, a := range t.state.Answers(round) {
		if first == nil {
			first = a
		} else if !slices.Equal(first, a) {
			return false
		}
	}
	return first != nil
}

// Converged reports whether every participant that answered the survey of
// round moved by less than tol on every value since its answer of the
// round before (the Sentimental Agents stop rule on dS).
func Converged(s *State, round int, tol float64) bool {
	if round < 2 {
		return false
	}
	now, before := s.Answers(round), s.Answers(round-1)
	if len(now) == 0 {
		return false
	}
	for id, vs := range now {
		prev, ok := before[id]
		if !ok || len(prev) != len(vs) {
			return false
		}
		for i := range vs {
			if math.Abs(vs[i]-prev[i]) >= tol {
				return false
			}
		}
	}
	return true
}

// openStep opens a step of the schedule with its turn drawn.
func (t *Table) openStep(round, step int, cands []Candidate) PhaseOpened {
	st, _ := t.state.Config.Protocol.Step(step)
	o := t.opening(round, st.Phase, cands)
	o.Step = step
	o.Turn, o.Pair = t.state.turn(round, step, st)
	return o
}

// turn draws who acts in step st, among those seated who play its part.
// Draws depend on the seed, round and step only, so a rerun draws the
// same; the result is recorded, so a replay never draws.
func (s *State) turn(round, step int, st Step) (turn, pair []string) {
	who := st.Speakers
	ids := make([]string, 0, len(s.Participants))
	for _, p := range s.Participants {
		if p.Plays(PartOf(st.Phase)) {
			ids = append(ids, p.ID)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(s.Config.Seed), stepStream(s.ID, round, step)))
	last := s.lastSpeaker()
	others := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return id == last })
	if len(others) == 0 {
		others = ids
	}
	switch who {
	case SpeakRandom:
		if len(others) > 0 {
			return []string{others[rng.IntN(len(others))]}, nil
		}
	case SpeakAllButOne:
		return others, nil
	case SpeakOne:
		if len(ids) > 0 {
			return []string{ids[rng.IntN(len(ids))]}, nil
		}
	case SpeakPair, SpeakBoth:
		drawn := s.roundPair(round)
		if drawn == nil && len(ids) >= 2 {
			i := rng.IntN(len(ids))
			j := (i + 1 + rng.IntN(len(ids)-1)) % len(ids)
			pair = []string{ids[i], ids[j]}
			drawn = pair
		}
		if who == SpeakPair {
			return drawn[:min(1, len(drawn))], pair
		}
		return slices.Clone(drawn), pair
	case SpeakListener:
		if drawn := s.roundPair(round); drawn != nil {
			return drawn[1:], nil
		}
	case SpeakInTurn:
		if len(ids) > 0 {
			return ids[:1], nil
		}
	}
	return nil, nil
}

// nextInTurn is who speaks next in the open step when its speakers take
// turns (SpeakInTurn): the first participant in seat order who has not had
// a turn in it (one who joined meanwhile speaks last; one who left is
// passed over); ok is false when everyone has.
func (s *State) nextInTurn() (string, bool) {
	if !s.takesTurns(s.Step) {
		return "", false
	}
	i := slices.IndexFunc(s.Participants, func(p Participant) bool { return !slices.Contains(s.Spoken, p.ID) })
	if i < 0 {
		return "", false
	}
	return s.Participants[i].ID, true
}

// takesTurns reports whether step of the table's schedule has its speakers
// take turns (SpeakInTurn).
func (s *State) takesTurns(step int) bool {
	if s.Config.Protocol == nil {
		return false
	}
	st, _ := s.Config.Protocol.Step(step)
	return st.Speakers == SpeakInTurn
}

// roundPair is the pair an earlier step of round drew, or nil: a round
// draws one pair, which every paired step uses.
func (s *State) roundPair(round int) []string {
	if round <= len(s.Rounds) && len(s.Rounds[round-1].Pair) == 2 {
		return s.Rounds[round-1].Pair
	}
	return nil
}

// stepStream names the random stream of a step: the table's ID is in it so
// that live tables, which share a seed, draw differently.
func stepStream(table string, round, step int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(table))
	var b [16]byte
	for i := range 8 {
		b[i] = byte(uint64(round) >> (8 * i))
		b[8+i] = byte(uint64(step) >> (8 * i))
	}
	h.Write(b[:])
	return h.Sum64()
}

// lastSpeaker is the author of the latest public message.
func (s *State) lastSpeaker() string { return s.past().Speaker }

// scheduledRounds is how many rounds ran all their steps: the current
// one counts once the table is in its final steps.
func (s *State) scheduledRounds() int {
	if s.Step >= len(s.Config.Protocol.Round) {
		return s.Round
	}
	return max(s.Round-1, 0)
}

// firstOpening opens round 1 of the table's schedule.
func (t *Table) firstOpening() PhaseOpened {
	if t.state.Config.Protocol == nil {
		return t.opening(1, PhaseMessage, nil)
	}
	return t.openStep(1, 0, nil)
}

// addressee is whom the actor must write to in a paired step, or "".
func (s *State) addressee(actor string) string {
	r := s.Current()
	if r == nil || len(r.Pair) != 2 || s.Config.Protocol == nil {
		return ""
	}
	switch st, _ := s.Config.Protocol.Step(s.Step); st.Speakers {
	case SpeakPair, SpeakBoth, SpeakListener:
	default:
		return ""
	}
	switch actor {
	case r.Pair[0]:
		return r.Pair[1]
	case r.Pair[1]:
		return r.Pair[0]
	}
	return ""
}

// checkStep checks, in Replay, that a phase of a protocol table opens a
// later step of its schedule, with the phase that step schedules.
func (s *State) checkStep(d PhaseOpened) error {
	st, ok := s.Config.Protocol.Step(d.Step)
	switch {
	case !ok || st.Phase != d.Phase:
		return fmt.Errorf("step %d of the schedule is not a %s phase", d.Step, d.Phase)
	case s.Status == StatusCreated:
		return nil
	case d.Round == s.Round && d.Step == s.Step && st.Speakers == SpeakInTurn && s.Closed:
		if next, ok := s.nextInTurn(); !ok || !slices.Equal(d.Turn, []string{next}) {
			return fmt.Errorf("round %d step %d: the turn goes to %q, not %q", d.Round, d.Step, next, d.Turn)
		}
	case d.Round < s.Round || d.Round == s.Round && d.Step <= s.Step:
		return fmt.Errorf("round %d step %d does not come after round %d step %d", d.Round, d.Step, s.Round, s.Step)
	}
	return nil
}
