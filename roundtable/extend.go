package roundtable

import (
	"context"
	"time"
)

// PhaseExtended records that the open phase's deadline moved: its
// organiser gave the table more time. Deadline is the new deadline.
type PhaseExtended struct {
	Round    int           `json:"round"`
	Phase    Phase         `json:"phase"`
	By       time.Duration `json:"by"`
	Deadline time.Time     `json:"deadline"`
}

// EventType implements Payload.
func (PhaseExtended) EventType() string { return "phase_extended" }

// MaxExtension bounds one extension of a phase.
const MaxExtension = 24 * time.Hour

// Extend moves the open phase's deadline by d, counted from the deadline
// or, if it has passed, from now, and records it as PhaseExtended with the
// actor and idempotency key. Who may extend is the caller's business (the
// organiser). It returns the new deadline. It refuses a table that is not
// running, a phase without a deadline (it closes when everyone has
// acted), and d outside (0, MaxExtension].
func (t *Table) Extend(ctx context.Context, actor, key string, d time.Duration) (time.Time, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	switch {
	case d <= 0 || d > MaxExtension:
		return time.Time{}, Errorf(Invalid, "extend by: %s is out of range (more than 0, at most %s)", d, MaxExtension)
	case s.Status != StatusRunning:
		return time.Time{}, Errorf(Conflict, "the table is not running: there is no phase to extend")
	case s.Deadline.IsZero():
		return time.Time{}, Errorf(Conflict, "the %s phase has no deadline: it closes when everyone has acted", s.Phase)
	}
	from := s.Deadline
	if now := t.clock.Now(); now.After(from) {
		from = now
	}
	ext := PhaseExtended{Round: s.Round, Phase: s.Phase, By: d, Deadline: from.Add(d)}
	if err := t.commitLocked(ctx, key, actor, ext); err != nil {
		return time.Time{}, err
	}
	return t.state.Deadline, nil
}
