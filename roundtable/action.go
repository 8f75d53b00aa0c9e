package roundtable

import (
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Action is something a participant does. The concrete types are Say,
// Propose, Skip, Cast, Report and Fail.
type Action interface {
	// Who returns the acting participant's ID and the idempotency key.
	Who() (actor, key string)
	// decide validates the action against the state and returns the events
	// to record. A non-nil error with events means "record these, and tell
	// the actor this" (a rejected ballot).
	decide(s *State, task Task) ([]Payload, error)
	with(actor, key string) Action
}

// Say is a message of the message phase.
type Say struct {
	Actor, Key string
	To         []string // recipients; empty means everyone
	Text       string
	Usage      *Usage
	Self       *SelfModel // a panel agent's mental model of self, restated (private)
	// Persona is the persona a chatroom agent wrote with and the opinion
	// signal read in the message (private).
	Persona *OpinionPersona
}

// Propose is a proposal of the proposal phase.
type Propose struct {
	Actor, Key string
	Proposal   Proposal
	Reasoning  string // private
	Usage      *Usage
	normalized bool // the Runner has normalised Proposal already
}

// Skip is an explicit skip of the proposal phase (the latest earlier
// proposal stays the participant's candidate).
type Skip struct {
	Actor, Key string
	Reasoning  string
	Usage      *Usage
}

// Cast is a ballot of the vote phase (Ballot.Abstain for an abstention).
type Cast struct {
	Actor, Key string
	Ballot     vote.Ballot
	Usage      *Usage
}

// Fail records that an agent could not act (format error, timeout, model
// error). It counts as a skip or an abstention.
type Fail struct {
	Actor, Key string
	Kind       string // "format", "timeout", "error"
	Reason     string
	Usage      *Usage
}

// Who implements Action.
func (a Say) Who() (string, string) { return a.Actor, a.Key }

// Who implements Action.
func (a Propose) Who() (string, string) { return a.Actor, a.Key }

// Who implements Action.
func (a Skip) Who() (string, string) { return a.Actor, a.Key }

// Who implements Action.
func (a Cast) Who() (string, string) { return a.Actor, a.Key }

// Who implements Action.
func (a Fail) Who() (string, string) { return a.Actor, a.Key }

func (a Say) with(actor, key string) Action     { a.Actor, a.Key = actor, key; return a }
func (a Propose) with(actor, key string) Action { a.Actor, a.Key = actor, key; return a }
func (a Skip) with(actor, key string) Action    { a.Actor, a.Key = actor, key; return a }
func (a Cast) with(actor, key string) Action    { a.Actor, a.Key = actor, key; return a }
func (a Fail) with(actor, key string) Action    { a.Actor, a.Key = actor, key; return a }

func (a Say) decide(s *State, _ Task) ([]Payload, error) {
	phase := PhaseMessage
	if s.Phase == PhasePrivate {
		phase = PhasePrivate
	}
	if err := s.mayAct(a.Actor, phase); err != nil {
		return nil, err
	}
	if err := CheckText(a.Text); err != nil {
		return nil, err
	}
	to, err := s.recipients(a)
	if err != nil {
		return nil, err
	}
	if a.Self != nil {
		if err := a.Self.Check(); err != nil {
			return nil, err
		}
	}
	if a.Persona != nil {
		if err := a.Persona.Check(); err != nil {
			return nil, err
		}
	}
	a.To = to
	return []Payload{MessagePosted{Round: s.Round, To: slices.Clone(a.To), Text: a.Text, Usage: a.Usage, Private: phase == PhasePrivate,
		Self: a.Self, Persona: a.Persona.clone()}}, nil
}

// decide accepts a proposal from a participant who already proposed in
// this phase: like a ballot, the last one before the phase closes counts.
func (a Propose) decide(s *State, task Task) ([]Payload, error) {
	if err := s.mayAct(a.Actor, PhaseProposal); err != nil && !s.proposed(a.Actor) {
		return nil, err
	}
	p := a.Proposal
	if !a.normalized {
		var err error
		if p, err = task.Normalize(a.Proposal); err != nil {
			return nil, err
		}
	}
	return []Payload{ProposalMade{Round: s.Round, Proposal: p, Reasoning: a.Reasoning, Usage: a.Usage}}, nil
}

func (a Skip) decide(s *State, _ Task) ([]Payload, error) {
	if err := s.mayAct(a.Actor, PhaseProposal); err != nil {
		return nil, err
	}
	return []Payload{ProposalSkipped{Round: s.Round, Reasoning: a.Reasoning, Usage: a.Usage}}, nil
}

// decide accepts a ballot even from a participant who already voted: the
// last valid ballot before the phase closes counts.
func (a Cast) decide(s *State, _ Task) ([]Payload, error) {
	if err := s.mayVote(a.Actor); err != nil {
		return nil, err
	}
	b := a.Ballot
	b.Voter = a.Actor
	if b.Reason = strings.TrimSpace(b.Reason); b.Reason != "" {
		if err := CheckText(b.Reason); err != nil {
			return nil, Errorf(Invalid, "the reason for your ballot: %s", ErrorMessage(err))
		}
	}
	ids := make([]string, len(s.Candidates))
	for i, c := range s.Candidates {
		ids[i] = c.ID
	}
	if err := s.Config.Rule.Check(b, ids); err != nil {
		reason := err.Error()
		return []Payload{BallotRejected{Round: s.Round, Ballot: b, Reason: reason}},
			Errorf(Invalid, "ballot rejected: %s", reason)
	}
	return []Payload{BallotCast{Round: s.Round, Ballot: b, Usage: a.Usage}}, nil
}

func (a Fail) decide(s *State, _ Task) ([]Payload, error) {
	if _, ok := s.Participant(a.Actor); !ok {
		return nil, Errorf(Forbidden, "%q is not a participant of this table", a.Actor)
	}
	if s.Status != StatusRunning {
		return nil, Errorf(Conflict, "the table is not running")
	}
	if s.Acted[a.Actor] {
		return nil, Errorf(Conflict, "%s already acted in this phase", a.Actor)
	}
	if err := s.checkTurn(a.Actor); err != nil {
		return nil, err
	}
	return []Payload{ActionFailed{Round: s.Round, Phase: s.Phase, Kind: a.Kind, Reason: a.Reason, Usage: a.Usage}}, nil
}

// mayAct checks that actor may take its one action of phase p now.
func (s *State) mayAct(actor string, p Phase) error {
	if err := s.inPhase(actor, p); err != nil {
		return err
	}
	if s.Acted[actor] {
		return Errorf(Conflict, "you already acted in the %s phase of round %d", p, s.Round)
	}
	return nil
}

// proposed reports whether actor made a proposal in the open round's
// proposal phase (which it may then replace).
func (s *State) proposed(actor string) bool {
	if s.Phase != PhaseProposal || s.Round < 1 || s.Round > len(s.Rounds) {
		return false
	}
	return slices.ContainsFunc(s.Rounds[s.Round-1].Proposals, func(p ProposalRecord) bool { return p.By == actor })
}

// mayVote checks that actor may cast a ballot now (again, if it already did).
func (s *State) mayVote(actor string) error {
	return s.inPhase(actor, PhaseVote)
}

func (s *State) inPhase(actor string, p Phase) error {
	if _, ok := s.Participant(actor); !ok {
		return Errorf(Forbidden, "only participants of this table can act: join it first")
	}
	switch {
	case s.Status == StatusCreated:
		return Errorf(Conflict, "the table has not started yet")
	case s.Status == StatusEnded:
		return Errorf(Conflict, "the table has ended")
	case s.Phase != p:
		return Errorf(Conflict, "round %d is in its %s phase, not the %s phase", s.Round, s.Phase, p)
	}
	return s.checkTurn(actor)
}

// WithActor returns a copy of a with its actor and idempotency key set.
func WithActor(a Action, actor, key string) Action { return a.with(actor, key) }
