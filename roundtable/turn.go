package roundtable

import (
	"errors"
	"slices"
	"strings"
)

// checkTurn refuses an action by a participant whose turn it is not.
func (s *State) checkTurn(actor string) error {
	if s.HasTurn(actor) {
		return nil
	}
	if !s.playsOpen(actor) {
		return s.noPart(actor)
	}
	return Errorf(Forbidden, notYourTurn+"only %s may act in the %s phase of round %d", s.TurnNames(), s.Phase, s.Round)
}

const notYourTurn = "it is not your turn: "

// NotYourTurn reports whether err refuses an action because the schedule
// gave the turn to someone else.
func NotYourTurn(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == Forbidden && strings.HasPrefix(e.Message, notYourTurn)
}

// TurnNames lists the names of the participants whose turn it is, or
// "everyone".
func (s *State) TurnNames() string {
	if len(s.Turn) == 0 {
		return "everyone"
	}
	names := make([]string, len(s.Turn))
	for i, id := range s.Turn {
		names[i] = id
		if p, ok := s.Participant(id); ok {
			names[i] = p.Name
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// recipients checks and completes the recipients of a message: in a paired
// step the actor writes to the other of the pair; a private message may go
// to nobody (a note to self) or to participants.
func (s *State) recipients(a Say) ([]string, error) {
	for _, to := range a.To {
		if _, ok := s.Participant(to); !ok {
			return nil, Errorf(Invalid, "recipient %q is not at this table", to)
		}
	}
	other := s.addressee(a.Actor)
	switch {
	case other == "":
		return a.To, nil
	case len(a.To) == 0:
		return []string{other}, nil
	case slices.Equal(a.To, []string{other}):
		return a.To, nil
	}
	p, _ := s.Participant(other)
	return nil, Errorf(Invalid, "in this round you write to %s only", p.Name)
}
