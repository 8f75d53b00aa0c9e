package roundtable

import (
	"errors"
	"fmt"
	"slices"
)

// LogError says that an event cannot follow a table's log: a stored log
// that gives one is damaged. It names the table, the event's sequence
// number and type, and what is wrong.
type LogError struct {
	Table string
	Seq   uint64
	Type  string
	Err   error
}

// Error implements error.
func (e *LogError) Error() string {
	return fmt.Sprintf("table %q: event %d (%s): %v", e.Table, e.Seq, e.Type, e.Err)
}

// Unwrap returns what is wrong with the event.
func (e *LogError) Unwrap() error { return e.Err }

// check validates e against s before it is applied: order, table, a
// payload the state can fold, rounds and phases in bounds, actors seated,
// references to participants and candidates that exist. It mirrors what
// the moderator checks before it records an event, so a log the moderator
// wrote always passes and a damaged one never panics the fold.
func (s *State) check(e Event) error {
	switch {
	case e.Seq != s.Seq+1:
		return fmt.Errorf("out of order: the next event is %d", s.Seq+1)
	case e.Data == nil:
		return errors.New("no payload")
	case s.Seq == 0 && e.Type() != (TableCreated{}).EventType():
		return errors.New("a log must begin with table_created")
	case s.Seq == 0 && e.Table == "":
		return errors.New("no table ID")
	case s.Seq > 0 && e.Table != s.ID:
		return fmt.Errorf("belongs to table %q", e.Table)
	}
	return s.checkPayload(e)
}

func (s *State) checkPayload(e Event) error {
	switch d := e.Data.(type) {
	case TableCreated:
		return s.checkCreated(d)
	case ParticipantJoined:
		return s.checkJoined(d)
	case ParticipantLeft:
		return s.checkSeated("participant", d.ID)
	case TableStarted:
		return s.checkStarted(d)
	case PhaseOpened:
		return s.checkOpened(d)
	case MessagePosted:
		return s.checkMessage(e.Actor, d)
	case SurveyAnswered:
		return s.checkAction(e.Actor, d.Round, PhaseSurvey)
	case ProposalMade:
		return s.checkAction(e.Actor, d.Round, PhaseProposal)
	case ProposalSkipped:
		return s.checkAction(e.Actor, d.Round, PhaseProposal)
	case BallotCast:
		return s.checkBallot(e.Actor, d)
	case BallotRejected:
		return s.checkAction(e.Actor, d.Round, PhaseVote)
	case ActionFailed:
		return s.checkAction(e.Actor, d.Round, d.Phase)
	case Withheld:
		return s.checkWithheld(e.Actor, d)
	case PhaseClosed:
		return s.checkPosition(d.Round, d.Phase)
	case PhaseExtended:
		return s.checkPosition(d.Round, d.Phase)
	case DecisionMade:
		return s.checkDecision(d)
	case TableEnded:
		if s.Status == StatusEnded {
			return errors.New("the table has already ended")
		}
		return nil
	}
	return fmt.Errorf("unknown payload %T", e.Data)
}

func (s *State) checkCreated(d TableCreated) error {
	if s.Seq != 0 {
		return errors.New("table_created after the log's first event")
	}
	if err := d.Config.Validate(); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	return nil
}

func (s *State) checkJoined(d ParticipantJoined) error {
	if s.Status == StatusEnded {
		return errors.New("the table has ended")
	}
	if err := d.Participant.validate(); err != nil {
		return err
	}
	if _, ok := s.Participant(d.Participant.ID); ok {
		return fmt.Errorf("participant %q is already seated", d.Participant.ID)
	}
	return nil
}

func (s *State) checkSeated(role, id string) error {
	if _, ok := s.Participant(id); !ok {
		return fmt.Errorf("%s %q is not seated", role, id)
	}
	return nil
}

func (s *State) checkOpened(d PhaseOpened) error {
	switch {
	case s.Status == StatusEnded:
		return errors.New("the table has ended")
	case d.Phase < PhaseMessage || d.Phase > PhasePrivate:
		return fmt.Errorf("unknown phase %d", int(d.Phase))
	case d.Round < 1 || d.Round > s.Config.Rounds:
		return fmt.Errorf("round %d is out of range 1..%d", d.Round, s.Config.Rounds)
	case s.Config.Protocol != nil:
		return s.checkStep(d)
	case d.Round < s.Round || d.Round == s.Round && d.Phase <= s.Phase:
		return fmt.Errorf("round %d %s phase does not come after round %d %s phase", d.Round, d.Phase, s.Round, s.Phase)
	case d.Phase == PhaseVote && len(d.Candidates) == 0:
		return errors.New("a vote phase without candidates")
	}
	seen := make(map[string]bool, len(d.Candidates))
	for _, c := range d.Candidates {
		if c.ID == "" || seen[c.ID] {
			return fmt.Errorf("candidate ID %q is empty or repeated", c.ID)
		}
		seen[c.ID] = true
	}
	return nil
}

// checkPosition checks that round r, phase p is the table's open phase.
func (s *State) checkPosition(r int, p Phase) error {
	switch {
	case s.Status != StatusRunning:
		return fmt.Errorf("the table is %s, not running", s.Status)
	case r != s.Round || p != s.Phase:
		return fmt.Errorf("round %d %s phase is not the open one (round %d %s phase)", r, p, s.Round, s.Phase)
	case s.Closed:
		return fmt.Errorf("round %d %s phase has closed", r, p)
	}
	return nil
}

// checkAction checks an action of actor in round r, phase p.
func (s *State) checkAction(actor string, r int, p Phase) error {
	if err := s.checkSeated("actor", actor); err != nil {
		return err
	}
	return s.checkPosition(r, p)
}

func (s *State) checkMessage(actor string, d MessagePosted) error {
	phase := PhaseMessage
	if d.Private {
		phase = PhasePrivate
	}
	if err := s.checkAction(actor, d.Round, phase); err != nil {
		return err
	}
	for _, to := range d.To {
		if err := s.checkSeated("recipient", to); err != nil {
			return err
		}
	}
	return nil
}

func (s *State) checkBallot(actor string, d BallotCast) error {
	if err := s.checkAction(actor, d.Round, PhaseVote); err != nil {
		return err
	}
	if d.Ballot.Voter != actor {
		return fmt.Errorf("ballot of %q cast by %q", d.Ballot.Voter, actor)
	}
	ids := make([]string, len(s.Candidates))
	for i, c := range s.Candidates {
		ids[i] = c.ID
	}
	if err := s.Config.Rule.Check(d.Ballot, ids); err != nil {
		return fmt.Errorf("invalid ballot: %w", err)
	}
	return nil
}

// withheldTypes are the events a viewer's copy of a log may withhold.
var withheldTypes = []string{"message_posted", "proposal_made", "proposal_skipped", "ballot_cast", "ballot_rejected", "action_failed", "survey_answered"}

func (s *State) checkWithheld(actor string, d Withheld) error {
	if !slices.Contains(withheldTypes, d.Type) {
		return fmt.Errorf("withheld event of type %q", d.Type)
	}
	if actor == "" && d.secretBallot() { // nobody's: see SecretBallots
		return s.checkPosition(d.Round, d.Phase)
	}
	return s.checkAction(actor, d.Round, d.Phase)
}

func (s *State) checkDecision(d DecisionMade) error {
	if s.Status != StatusRunning || d.Round != s.Round {
		return fmt.Errorf("a decision of round %d while the table is %s in round %d", d.Round, s.Status, s.Round)
	}
	if d.Tally.Winner == "" {
		return nil
	}
	if !slices.ContainsFunc(s.Candidates, func(c Candidate) bool { return c.ID == d.Tally.Winner }) {
		return fmt.Errorf("winner %q is not a candidate", d.Tally.Winner)
	}
	return nil
}
