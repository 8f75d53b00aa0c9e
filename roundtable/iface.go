package roundtable

import (
	"context"
	"time"
)

// Store persists table logs.
//
// Implementations must be safe for concurrent use by many tables. Append is
// atomic: either every event is durable when it returns nil, or none is.
// Events of a table carry consecutive Seq numbers starting at 1; Append
// returns an *Error with code Conflict when the first event's Seq is not
// one past the last stored one (another writer got there first), and
// Load returns one with code NotFound for a table that has no events.
type Store interface {
	Append(ctx context.Context, table string, events []Event) error
	Load(ctx context.Context, table string) ([]Event, error)
	Tables(ctx context.Context) ([]Summary, error)
}

// Blob is one record of the small namespaced key-value records a store
// keeps beside the tables' logs for the adapters (the web channel's rooms
// and posts): what a store writes many of in one transaction
// (store.DB.AddBlobs) and an adapter queues for it.
type Blob struct {
	NS, Key string
	Value   []byte
}

// Clock tells the time. Tests inject a fake one; deadlines depend on it.
type Clock interface {
	Now() time.Time
}

// SystemClock is the wall clock.
type SystemClock struct{}

// Now implements Clock.
func (SystemClock) Now() time.Time { return time.Now() }

// Agent decides what a non-human participant does in a phase.
//
// Act is called once per participant and phase with what that participant
// may see, and returns a Say (message phase), Propose or Skip (proposal
// phase), Cast (vote phase) or Fail. The moderator fills in Actor and Key.
// An error counts as a failed action of kind "error" (or "timeout" when ctx
// expired). Implementations must honour ctx and be safe for concurrent use
// across participants; for a reproducible run, Act must depend only on the
// View and the agent's own configuration.
type Agent interface {
	Act(ctx context.Context, v View) (Action, error)
}

// AgentFunc adapts a function to Agent.
type AgentFunc func(ctx context.Context, v View) (Action, error)

// Act implements Agent.
func (f AgentFunc) Act(ctx context.Context, v View) (Action, error) { return f(ctx, v) }

// Summary is a table's entry in the store's index.
type Summary struct {
	ID           string    `json:"id"`
	Title        string    `json:"title,omitempty"`
	Status       Status    `json:"status"`
	Task         string    `json:"task"`
	Rule         string    `json:"rule"`
	Round        int       `json:"round"`
	Rounds       int       `json:"rounds"`
	Participants int       `json:"participants"`
	Events       uint64    `json:"events"`
	Created      time.Time `json:"created"`
	Started      time.Time `json:"started,omitzero"` // zero while it waits for its people
	Updated      time.Time `json:"updated"`
	Output       string    `json:"output,omitempty"`
}

// Summarize folds newly appended events into a table's index entry. Stores
// call it inside the transaction that appends the events.
func Summarize(s Summary, events []Event) Summary {
	for _, e := range events {
		s.ID, s.Events, s.Updated = e.Table, e.Seq, e.Time
		switch d := e.Data.(type) {
		case TableCreated:
			s.Title, s.Status, s.Created = d.Config.Title, StatusCreated, e.Time
			s.Task, s.Rule, s.Rounds = d.Config.Task.Kind, string(d.Config.Rule), d.Config.Rounds
			s.Participants = len(d.Config.Participants)
		case ParticipantJoined:
			s.Participants++
		case ParticipantLeft:
			s.Participants--
		case TableStarted:
			s.Started = e.Time
		case PhaseOpened:
			s.Status, s.Round = StatusRunning, d.Round
			if s.Started.IsZero() { // a log from before tables waited: it started with its first phase
				s.Started = e.Time
			}
		case TableEnded:
			s.Status = StatusEnded
			if d.Output != nil {
				s.Output = d.Output.Proposal.Text
			}
		}
	}
	return s
}
