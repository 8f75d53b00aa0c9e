package roundtable

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Close reasons recorded in PhaseClosed.
const (
	ClosedAllActed = "all acted"
	ClosedDeadline = "deadline"
	ClosedStopped  = "stopped"
	ClosedEarly    = "closed early" // by whoever may manage the table
)

// End reasons recorded in TableEnded.
const (
	EndRounds      = "rounds"
	EndFirst       = string(StopFirst)
	EndConsecutive = string(StopConsecutive)
	EndStopped     = "stopped"
)

// Ready reports whether every participant has acted in the open phase, so
// the phase may close before its deadline.
func (t *Table) Ready() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state.Status == StatusRunning && len(t.state.Pending()) == 0
}

// Close closes the open phase and opens the next one, or ends the table
// after its last round or an early stop. All of it is one transaction.
// expect guards against closing a phase twice: Close does nothing and
// returns false when the table is no longer in round expect.Round, phase
// expect.Phase (pass a zero Position to close whatever is open).
func (t *Table) Close(ctx context.Context, expect Position, reason string) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	if s.Status != StatusRunning {
		return false, nil
	}
	if expect != (Position{}) && expect != s.Position() {
		return false, nil
	}
	pays := t.closing(reason)
	return true, t.commitLocked(ctx, "", "", pays...)
}

// Stop ends the table now; its output is the current decision.
func (t *Table) Stop(ctx context.Context, actor, reason string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	if s.Status == StatusEnded {
		return Errorf(Conflict, "the table has already ended")
	}
	var pays []Payload
	if s.Status == StatusRunning {
		pays = append(pays, PhaseClosed{Round: s.Round, Phase: s.Phase, Reason: ClosedStopped})
	}
	if reason == "" {
		reason = EndStopped
	}
	pays = append(pays, TableEnded{Output: s.Decision, Reason: reason, Rounds: s.playedRounds()})
	return t.commitLocked(ctx, "", actor, pays...)
}

// Position is a point in a table's life: a round and its phase.
type Position struct {
	Round int   `json:"round"`
	Phase Phase `json:"phase"`
	// Turn counts the turns of a step whose speakers take turns
	// (SpeakInTurn), from 1: each turn is a phase of its own, which a
	// deadline set for an earlier turn must not close.
	Turn int `json:"turn,omitempty"`
}

// Position returns where the table is now.
func (s *State) Position() Position {
	pos := Position{Round: s.Round, Phase: s.Phase}
	if s.takesTurns(s.Step) {
		pos.Turn = len(s.Spoken)
	}
	return pos
}

// closing returns the events that close the open phase and open the next.
func (t *Table) closing(reason string) []Payload {
	s := t.state
	if s.Config.Protocol != nil {
		return t.scheduleClosing(reason)
	}
	pays := []Payload{PhaseClosed{Round: s.Round, Phase: s.Phase, Reason: reason}}
	switch s.Phase {
	case PhaseMessage:
		return append(pays, t.opening(s.Round, PhaseProposal, nil))
	case PhaseProposal:
		return append(pays, t.afterProposals()...)
	default:
		return append(pays, t.afterVote(t.decision())...)
	}
}

// afterProposals opens the vote, or skips it when there is nothing to vote
// on, or ends the table under "consecutive agreements".
func (t *Table) afterProposals() []Payload {
	s := t.state
	if s.Config.EarlyStop == StopConsecutive && s.settled(t.task) {
		return []Payload{TableEnded{Output: s.Decision, Reason: EndConsecutive, Rounds: s.Round}}
	}
	cands := s.candidates(t.task)
	if len(cands) == 0 {
		d := DecisionMade{Round: s.Round, Decision: s.Decision,
			Tally: Tally{Rule: s.Config.Rule, Totals: map[string]json.Number{}, Participants: s.voters(), Reason: "no candidates: nobody has proposed anything yet"}}
		return t.afterVote(d)
	}
	return []Payload{t.opening(s.Round, PhaseVote, cands)}
}

// afterVote records the decision and opens the next round or ends.
func (t *Table) afterVote(d DecisionMade) []Payload {
	s := t.state
	pays := []Payload{d}
	last := s.Round >= s.Config.Rounds
	switch {
	case d.Accepted && s.Config.EarlyStop == StopFirst:
		return append(pays, TableEnded{Output: d.Decision, Reason: EndFirst, Rounds: s.Round})
	case last:
		return append(pays, TableEnded{Output: d.Decision, Reason: EndRounds, Rounds: s.Round})
	}
	return append(pays, t.opening(s.Round+1, PhaseMessage, nil))
}

func (t *Table) opening(round int, p Phase, cands []Candidate) PhaseOpened {
	o := PhaseOpened{Round: round, Phase: p, Candidates: cands}
	if d := t.state.Config.Durations.For(p); d > 0 {
		o.Deadline = t.clock.Now().Add(d)
	}
	return o
}

// settled reports, at the close of a proposal phase, whether the previous
// round accepted a proposal and nobody proposed anything new since.
func (s *State) settled(task Task) bool {
	if s.Round < 2 {
		return false
	}
	prev := s.Rounds[s.Round-2]
	if prev.Tally == nil || prev.Tally.Winner == "" {
		return false
	}
	known := make(map[string]bool, len(prev.Candidates))
	for _, c := range prev.Candidates {
		known[c.Key] = true
	}
	for _, p := range s.Rounds[s.Round-1].Proposals {
		if !known[task.Key(p.Proposal)] {
			return false
		}
	}
	return true
}

// candidates lists the latest proposal of every seated participant plus the
// current decision, identical ones merged, in letter order. A proposal keeps
// its letter for the whole table: the first time it is a candidate it gets
// the first letter no other proposal had (A, B, C ...).
func (s *State) candidates(task Task) []Candidate {
	letters, used := s.letters()
	var out []Candidate
	index := map[string]int{}
	add := func(p Proposal, by string, incumbent bool) {
		key := task.Key(p)
		if i, ok := index[key]; ok {
			if by != "" {
				out[i].Proposers = append(out[i].Proposers, by)
			}
			out[i].Incumbent = out[i].Incumbent || incumbent
			return
		}
		id, ok := letters[key]
		if !ok || slices.ContainsFunc(out, func(c Candidate) bool { return c.ID == id }) { // two old keys may share a letter
			id = nextLetter(used)
			used[id] = true
		}
		c := Candidate{ID: id, Proposal: p, Key: key, Incumbent: incumbent}
		if by != "" {
			c.Proposers = []string{by}
		}
		index[key] = len(out)
		out = append(out, c)
	}
	for _, p := range s.Participants {
		if prop, ok := s.Latest[p.ID]; ok {
			add(prop, p.ID, false)
		}
	}
	if s.Decision != nil {
		add(s.Decision.Proposal, "", true)
	}
	slices.SortStableFunc(out, func(a, b Candidate) int { return cmp.Or(cmp.Compare(len(a.ID), len(b.ID)), cmp.Compare(a.ID, b.ID)) })
	return out
}

// letters returns the letter each proposal had as a candidate in earlier
// rounds (the latest; read only), and a copy of the letters used.
func (s *State) letters() (map[string]string, map[string]bool) {
	p := s.past()
	used := maps.Clone(p.Used)
	if used == nil {
		used = map[string]bool{}
	}
	return p.Letters, used
}

// nextLetter is the first candidate letter not in used.
func nextLetter(used map[string]bool) string {
	for i := 0; ; i++ {
		if id := CandidateID(i); !used[id] {
			return id
		}
	}
}

// decision tallies the round's ballots.
func (t *Table) decision() DecisionMade {
	s := t.state
	prof := vote.Profile{Participants: s.voters()}
	for _, c := range s.Candidates {
		prof.Candidates = append(prof.Candidates, c.ID)
		if c.Incumbent {
			prof.Incumbent = c.ID
		}
	}
	for _, p := range s.Participants {
		if b, ok := s.Ballots[p.ID]; ok {
			prof.Ballots = append(prof.Ballots, b)
		}
	}
	opt := vote.Options{Tie: s.Config.Tie, Seed: s.Config.Seed*1000003 + int64(s.Round), Quorum: s.Config.Quorum}
	res, err := vote.Tally(s.Config.Rule, prof, opt)
	d := DecisionMade{Round: s.Round, Decision: s.Decision, Tally: toTally(res, prof)}
	if err != nil {
		d.Tally.Reason = "the vote could not be counted: " + err.Error()
		return d
	}
	if res.Winner != "" {
		for _, c := range s.Candidates {
			if c.ID == res.Winner {
				w := c
				d.Decision, d.Accepted = &w, true
			}
		}
	}
	return d
}

func toTally(r vote.Result, p vote.Profile) Tally {
	t := Tally{Rule: r.Rule, Winner: r.Winner, Tied: r.Tied, Ranking: r.Ranking, Ballots: p.Ballots,
		Rejected: r.Rejected, Counted: r.Counted, Abstained: r.Abstained, Participants: p.Participants,
		Reason: r.Reason, Totals: make(map[string]json.Number, len(r.Totals))}
	for id, v := range r.Totals {
		t.Totals[id] = json.Number(vote.Decimal(v))
	}
	return t
}

func (s *State) playedRounds() int {
	if s.Config.Protocol != nil {
		return s.scheduledRounds()
	}
	n := s.Round
	if c := s.Current(); c != nil && c.Tally == nil {
		n--
	}
	return max(n, 0)
}

// Settle records actions and then closes the phase at pos, all in one
// transaction: what a headless runner does at the end of every phase. The
// per-action errors are as for Submit; a refused action is simply not
// recorded. closed is false when the table had already left pos.
func (t *Table) Settle(ctx context.Context, pos Position, reason string, actions ...Action) (errs []error, closed bool, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	errs = make([]error, len(actions))
	if s.Status != StatusRunning || s.Position() != pos {
		for i := range errs {
			errs[i] = Errorf(Conflict, "the phase has closed")
		}
		return errs, false, nil
	}
	var batch []Event
	for i, a := range actions {
		evs, aerr := t.decide(a)
		errs[i] = aerr
		if err := t.applyAll(evs); err != nil {
			return errs, false, t.rollback(ctx, err)
		}
		batch = append(batch, evs...)
	}
	now := t.clock.Now()
	for _, p := range t.closing(reason) {
		e := Event{Table: s.ID, Seq: t.state.Seq + 1, Time: now, Data: p}
		if err := t.state.Apply(e); err != nil {
			return errs, false, t.rollback(ctx, err)
		}
		batch = append(batch, e)
	}
	if err := t.append(ctx, batch); err != nil {
		return errs, false, t.rollback(ctx, fmt.Errorf("settle round %d %s phase: %w", pos.Round, pos.Phase, err))
	}
	return errs, true, nil
}
