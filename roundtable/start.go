package roundtable

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"
	"time"
)

// A live table waits for its people: it is created with no phase open
// (StatusCreated), people join, and nothing runs until it starts, by the
// trigger its organiser chose (Start). Starting records TableStarted and
// opens round 1 in one transaction, so turns are drawn among everyone
// seated then. Headless runs start at once (Table.Start) and record no
// TableStarted.

// StartWhen is what starts a waiting table.
type StartWhen string

// Start triggers.
const (
	StartOrganiser StartWhen = "organiser" // the organiser starts it (the default)
	StartFull      StartWhen = "full"      // it starts once Start.Seats seats are taken
	StartAt        StartWhen = "at"        // it starts at Start.At
)

// Start says when a live table opens round 1, and whom it needs. The
// organiser may start a table early whatever the trigger.
type Start struct {
	When StartWhen `json:"when,omitempty"` // "": StartOrganiser
	// Seats is how many seats, people's and bots', a StartFull table
	// waits for.
	Seats int `json:"seats,omitempty"`
	// At is when a StartAt table starts.
	At time.Time `json:"at,omitzero"`
	// People is the fewest people the table needs to start; 0 takes the
	// protocol's need (Config.PeopleNeeded).
	People int `json:"people,omitempty"`
}

// Trigger returns s.When, StartOrganiser when unset.
func (s Start) Trigger() StartWhen {
	if s.When == "" {
		return StartOrganiser
	}
	return s.When
}

// Validate reports the first problem with s, naming its field.
func (s Start) Validate() error {
	switch s.Trigger() {
	case StartOrganiser:
	case StartFull:
		if s.Seats < 1 {
			return Errorf(Invalid, "seats: a table that starts when full needs its number of seats (1 or more)")
		}
	case StartAt:
		if s.At.IsZero() {
			return Errorf(Invalid, "start_at: a table that starts at a set time needs the time")
		}
	default:
		return Errorf(Invalid, "start: unknown trigger %q (want %s, %s or %s)", s.When, StartOrganiser, StartFull, StartAt)
	}
	switch {
	case s.Seats < 0 || s.Seats > MaxSeats:
		return Errorf(Invalid, "seats: %d is out of range 1..%d", s.Seats, MaxSeats)
	case s.People < 0 || s.People > MaxSeats:
		return Errorf(Invalid, "people: %d is out of range 0..%d", s.People, MaxSeats)
	case s.Trigger() == StartFull && s.People > s.Seats:
		return Errorf(Invalid, "people: %d people cannot sit at %d seats", s.People, s.Seats)
	}
	return nil
}

// MaxSeats bounds the seats a live table waits for.
const MaxSeats = 500

// PeopleNeeded is the fewest people the table needs to start: Start.People
// when set; else one at a table under a protocol other than RoundTable's
// (a panel, a chatroom, dyads, a questionnaire exist for their people's
// views), none at a RoundTable table (bots may deliberate while the
// organiser watches).
func (c Config) PeopleNeeded() int {
	switch {
	case c.Start.People > 0:
		return c.Start.People
	case c.Protocol != nil:
		return 1
	}
	return 0
}

// Started trigger reasons of TableStarted, beside the StartWhen values.
const StartedEarly = "organiser-early" // the organiser started a full or timed table before its trigger

// TableStarted records that a waiting table started, and why: the
// trigger that started it (a StartWhen, or StartedEarly); the actor is
// the organiser who started it, if anyone did. Seats, when set, is the
// number of seats the table's task is sized for from now on (the
// exchange economy's agents: one per seat taken at the start), recorded
// in the task spec's ParamSeats.
type TableStarted struct {
	Reason string `json:"reason"`
	Seats  int    `json:"seats,omitempty"`
}

// EventType implements Payload.
func (TableStarted) EventType() string { return "table_started" }

// ParamSeats is the task parameter that sizes a task by its seats (the
// exchange economy); TableStarted sets it when the table starts.
const ParamSeats = "seats"

// Begin starts a waiting table: it records TableStarted (reason and the
// organiser who started it, if any) and opens round 1, with its turn
// drawn among everyone seated now. When sized is set, the task is sized
// by the seats taken: task becomes the table's task (built for that many
// seats) and the count is recorded. It refuses a table that has started,
// and one nobody sits at.
func (t *Table) Begin(ctx context.Context, actor, reason string, sized Task) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	switch {
	case s.Status != StatusCreated:
		return Errorf(Conflict, "the table has already started")
	case len(s.Participants) == 0:
		return Errorf(Conflict, "nobody is at the table yet")
	}
	started := TableStarted{Reason: reason}
	if sized != nil {
		if sized.Kind() != s.Config.Task.Kind {
			return fmt.Errorf("start table %s: the sized task is %q, the table's %q", s.ID, sized.Kind(), s.Config.Task.Kind)
		}
		started.Seats = len(s.Participants)
	}
	// TableStarted changes no seat: round 1's turn, drawn now, is the
	// one drawn after it.
	now := t.clock.Now()
	evs := []Event{{Time: now, Actor: actor, Data: started}, {Time: now, Data: t.firstOpening()}}
	if err := t.commitEvents(ctx, evs); err != nil {
		return err
	}
	if sized != nil {
		t.task = sized
	}
	return nil
}

func (s *State) checkStarted(d TableStarted) error {
	switch {
	case s.Status != StatusCreated:
		return errors.New("the table has already started")
	case !s.Started.IsZero():
		return errors.New("the table started already")
	case d.Seats < 0 || d.Seats > len(s.Participants):
		return fmt.Errorf("sized for %d seats with %d seated", d.Seats, len(s.Participants))
	}
	return nil
}

// started folds TableStarted.
func (s *State) started(t time.Time, d TableStarted) {
	s.Started = t
	if d.Seats > 0 {
		s.Config.Task.Params = maps.Clone(s.Config.Task.Params)
		if s.Config.Task.Params == nil {
			s.Config.Task.Params = map[string]string{}
		}
		s.Config.Task.Params[ParamSeats] = strconv.Itoa(d.Seats)
	}
}
