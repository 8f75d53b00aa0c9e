package roundtable

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Event is one entry of a table's append-only log. Seq numbers a table's
// events from 1 without gaps; Key makes a retried delivery idempotent.
type Event struct {
	Table string    `json:"table"`
	Seq   uint64    `json:"seq"`
	Time  time.Time `json:"time"`
	Actor string    `json:"actor,omitempty"` // participant ID, or "" for the moderator
	Key   string    `json:"key,omitempty"`
	Data  Payload   `json:"-"`
}

// Payload is the typed content of an event.
type Payload interface {
	// EventType names the payload in the log ("ballot_cast", ...).
	EventType() string
}

// The payloads. Each is applied by State.Apply.
type (
	// TableCreated opens the log with the table's whole configuration.
	TableCreated struct {
		Config Config `json:"config"`
	}
	// ParticipantJoined adds a seat.
	ParticipantJoined struct {
		Participant Participant `json:"participant"`
	}
	// ParticipantLeft frees the actor's seat.
	ParticipantLeft struct {
		ID string `json:"id"`
	}
	// PhaseOpened starts a phase; a vote phase lists its candidates.
	PhaseOpened struct {
		Round      int         `json:"round"`
		Phase      Phase       `json:"phase"`
		Deadline   time.Time   `json:"deadline,omitzero"`
		Candidates []Candidate `json:"candidates,omitempty"`
		// Step, Turn and Pair are set under a Protocol: the schedule step,
		// who may act (empty: everyone) and the pair sampled for the round.
		Step int      `json:"step,omitempty"`
		Turn []string `json:"turn,omitempty"`
		Pair []string `json:"pair,omitempty"`
	}
	// MessagePosted is the actor's message of a round.
	MessagePosted struct {
		Round int      `json:"round"`
		To    []string `json:"to,omitempty"` // empty: everyone
		Text  string   `json:"text"`
		Usage *Usage   `json:"usage,omitempty"`
		// Private messages (the private phase) are seen by their author and
		// addressees only.
		Private bool `json:"private,omitempty"`
		// Self is the author's restated mental model of self, its own
		// (and researchers' after the table ended) like private reasoning.
		Self *SelfModel `json:"self_model,omitempty"`
		// Persona is the author's chatroom persona and the opinion signal
		// read in the message, private like Self.
		Persona *OpinionPersona `json:"persona,omitempty"`
	}
	// SurveyAnswered is the actor's private self-report in a survey phase.
	SurveyAnswered struct {
		Round  int       `json:"round"`
		Values []float64 `json:"values"`
		Reason string    `json:"reason,omitempty"`
		Usage  *Usage    `json:"usage,omitempty"`
		// Persona is the chatroom persona the answer was given with,
		// private like Reason.
		Persona *OpinionPersona `json:"persona,omitempty"`
	}
	// ProposalMade is the actor's proposal; Reasoning is private.
	ProposalMade struct {
		Round     int      `json:"round"`
		Proposal  Proposal `json:"proposal"`
		Reasoning string   `json:"reasoning,omitempty"`
		Usage     *Usage   `json:"usage,omitempty"`
	}
	// ProposalSkipped records an explicit skip.
	ProposalSkipped struct {
		Round     int    `json:"round"`
		Reasoning string `json:"reasoning,omitempty"`
		Usage     *Usage `json:"usage,omitempty"`
	}
	// BallotCast is a valid ballot; a later one from the same voter in the
	// same round replaces it.
	BallotCast struct {
		Round  int         `json:"round"`
		Ballot vote.Ballot `json:"ballot"`
		Usage  *Usage      `json:"usage,omitempty"`
	}
	// BallotRejected is an invalid ballot, kept for the statistics.
	BallotRejected struct {
		Round  int         `json:"round"`
		Ballot vote.Ballot `json:"ballot"`
		Reason string      `json:"reason"`
	}
	// ActionFailed is an agent's failed action (format error, timeout,
	// model error); it counts as a skip or abstention.
	ActionFailed struct {
		Round  int    `json:"round"`
		Phase  Phase  `json:"phase"`
		Kind   string `json:"kind"` // "format", "timeout", "error"
		Reason string `json:"reason"`
		Usage  *Usage `json:"usage,omitempty"`
	}
	// PhaseClosed ends the open phase.
	PhaseClosed struct {
		Round  int    `json:"round"`
		Phase  Phase  `json:"phase"`
		Reason string `json:"reason"`
	}
	// DecisionMade is the outcome of a round's vote.
	DecisionMade struct {
		Round    int        `json:"round"`
		Tally    Tally      `json:"tally"`
		Decision *Candidate `json:"decision,omitempty"` // the current decision after the round
		Accepted bool       `json:"accepted"`           // a winner was chosen this round
	}
	// TableEnded closes the table with its output.
	TableEnded struct {
		Output *Candidate `json:"output,omitempty"`
		Reason string     `json:"reason"`
		Rounds int        `json:"rounds"` // rounds played
	}
)

// EventType implements Payload.
func (TableCreated) EventType() string { return "table_created" }

// EventType implements Payload.
func (ParticipantJoined) EventType() string { return "participant_joined" }

// EventType implements Payload.
func (ParticipantLeft) EventType() string { return "participant_left" }

// EventType implements Payload.
func (PhaseOpened) EventType() string { return "phase_opened" }

// EventType implements Payload.
func (MessagePosted) EventType() string { return "message_posted" }

// EventType implements Payload.
func (SurveyAnswered) EventType() string { return "survey_answered" }

// EventType implements Payload.
func (ProposalMade) EventType() string { return "proposal_made" }

// EventType implements Payload.
func (ProposalSkipped) EventType() string { return "proposal_skipped" }

// EventType implements Payload.
func (BallotCast) EventType() string { return "ballot_cast" }

// EventType implements Payload.
func (BallotRejected) EventType() string { return "ballot_rejected" }

// EventType implements Payload.
func (ActionFailed) EventType() string { return "action_failed" }

// EventType implements Payload.
func (PhaseClosed) EventType() string { return "phase_closed" }

// EventType implements Payload.
func (DecisionMade) EventType() string { return "decision_made" }

// EventType implements Payload.
func (TableEnded) EventType() string { return "table_ended" }

// newPayload returns a pointer to an empty payload of the named type.
func newPayload(typ string) (Payload, error) {
	switch typ {
	case "table_created":
		return &TableCreated{}, nil
	case "participant_joined":
		return &ParticipantJoined{}, nil
	case "participant_left":
		return &ParticipantLeft{}, nil
	case "phase_opened":
		return &PhaseOpened{}, nil
	case "message_posted":
		return &MessagePosted{}, nil
	case "proposal_made":
		return &ProposalMade{}, nil
	case "survey_answered":
		return &SurveyAnswered{}, nil
	case "proposal_skipped":
		return &ProposalSkipped{}, nil
	case "ballot_cast":
		return &BallotCast{}, nil
	case "ballot_rejected":
		return &BallotRejected{}, nil
	case "action_failed":
		return &ActionFailed{}, nil
	case "phase_closed":
		return &PhaseClosed{}, nil
	case "decision_made":
		return &DecisionMade{}, nil
	case "table_ended":
		return &TableEnded{}, nil
	case "phase_extended":
		return &PhaseExtended{}, nil
	case "table_started":
		return &TableStarted{}, nil
	case "withheld":
		return &Withheld{}, nil
	}
	return nil, fmt.Errorf("unknown event type %q", typ)
}

type eventJSON struct {
	Table string          `json:"table"`
	Seq   uint64          `json:"seq"`
	Time  time.Time       `json:"time"`
	Type  string          `json:"type"`
	Actor string          `json:"actor,omitempty"`
	Key   string          `json:"key,omitempty"`
	Data  json.RawMessage `json:"data"`
}

// Type returns the event's type name.
func (e Event) Type() string {
	if e.Data == nil {
		return ""
	}
	return e.Data.EventType()
}

// MarshalJSON encodes the event as {"table","seq","time","type","actor","key","data"}.
func (e Event) MarshalJSON() ([]byte, error) {
	if e.Data == nil {
		return nil, fmt.Errorf("event %d of table %s has no payload", e.Seq, e.Table)
	}
	data, err := json.Marshal(e.Data)
	if err != nil {
		return nil, fmt.Errorf("encode %s payload: %w", e.Type(), err)
	}
	return json.Marshal(eventJSON{e.Table, e.Seq, e.Time, e.Type(), e.Actor, e.Key, data})
}

// UnmarshalJSON decodes what MarshalJSON wrote; payloads come back as values.
func (e *Event) UnmarshalJSON(b []byte) error {
	var raw eventJSON
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("decode event: %w", err)
	}
	p, err := newPayload(raw.Type)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw.Data, p); err != nil {
		return fmt.Errorf("decode %s payload of event %d: %w", raw.Type, raw.Seq, err)
	}
	*e = Event{Table: raw.Table, Seq: raw.Seq, Time: raw.Time, Actor: raw.Actor, Key: raw.Key, Data: deref(p)}
	return nil
}

// deref turns the pointer newPayload made into the value type the moderator
// writes, so a decoded event equals the event that was encoded.
func deref(p Payload) Payload {
	switch v := p.(type) {
	case *TableCreated:
		return *v
	case *ParticipantJoined:
		return *v
	case *ParticipantLeft:
		return *v
	case *PhaseOpened:
		return *v
	case *MessagePosted:
		return *v
	case *ProposalMade:
		return *v
	case *SurveyAnswered:
		return *v
	case *ProposalSkipped:
		return *v
	case *BallotCast:
		return *v
	case *BallotRejected:
		return *v
	case *ActionFailed:
		return *v
	case *PhaseClosed:
		return *v
	case *DecisionMade:
		return *v
	case *TableEnded:
		return *v
	case *PhaseExtended:
		return *v
	case *TableStarted:
		return *v
	case *Withheld:
		return *v
	}
	return p
}
