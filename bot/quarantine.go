package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// A table whose stored log does not replay, or whose data lies under a
// damaged page of the database (a roundtable.DamageError of the store), is
// quarantined: the error is logged, its channel is told once, and every
// other table goes on. The table stays out of service until its log is
// repaired and the server restarted.

// quarantine records that table id is damaged, logs why, and tells its
// channel (when it is known) once. It returns the error its users see.
func (s *Service) quarantine(ctx context.Context, id string, p Platform, channel string, cause error) error {
	s.mu.Lock()
	_, known := s.damaged[id]
	s.damaged[id] = cause
	s.mu.Unlock()
	if !known {
		s.log.Error("table quarantined: its stored log cannot be read back", "table", id, "err", cause)
		s.tellQuarantined(ctx, id, p, channel)
	}
	return quarantinedError(id)
}

// tellQuarantined posts the notice through the courier: it is recorded as
// delivered like any post, so a restart does not post it again.
func (s *Service) tellQuarantined(ctx context.Context, id string, p Platform, channel string) {
	if p == nil || channel == "" {
		return
	}
	sent, err := s.loadSentLog(ctx, id, roundWindow{})
	if err != nil {
		s.log.Error("deliveries of quarantined table", "table", id, "err", err)
		return
	}
	text := fmt.Sprintf("**This table is paused**: its stored log (table %s) is damaged and cannot be read back. "+
		"Nothing more can be done here until the server's operator repairs it; other tables are not affected.", id)
	s.couriers[p.Name()].enqueue(intent{Table: id, Channel: channel, Key: "quarantine", Mark: "quarantine",
		Msg: Message{Text: text, Key: id + "/quarantine"}}, sent)
}

// isDamaged reports whether table id is quarantined.
func (s *Service) isDamaged(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.damaged[id] != nil
}

func quarantinedError(id string) error {
	return roundtable.Errorf(roundtable.Conflict, "table %s is paused: its stored log is damaged (the server's operator has the details)", id)
}

// openSafely is roundtable.OpenFunc, turning a panic of a malformed log
// into an error: one damaged table must not take the server down.
func openSafely(ctx context.Context, st roundtable.Store, clock roundtable.Clock, id string,
	task func(roundtable.Config) (roundtable.Task, error)) (t *roundtable.Table, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("open table %s: replay: %v", id, r)
		}
	}()
	return roundtable.OpenFunc(ctx, st, clock, id, task)
}

// errOtherPlatform stops opening a table that another platform runs.
var errOtherPlatform = errors.New("another platform's table")

// configError is a failure to open a table that is not its log's: its
// task or its delivery records.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

func isConfigError(err error) bool {
	var c *configError
	return errors.As(err, &c)
}

// quarantineDamaged quarantines the tables err reports damaged (a
// roundtable.DamageError of the store's), and reports whether err is such
// damage: the tables it does not name were read.
func (s *Service) quarantineDamaged(ctx context.Context, err error) bool {
	var d *roundtable.DamageError
	if !errors.As(err, &d) {
		return false
	}
	for id, cause := range d.Tables {
		_ = s.quarantineLog(ctx, id, cause) // the error is for users; there are none here
	}
	if d.Err != nil {
		s.log.Error("the database is damaged: tables under the damage may be missing", "file", d.File, "err", d.Err)
	}
	return true
}

// quarantineLog quarantines table id, whose log does not replay or cannot
// be read, telling its channel when the log's first event still says
// where it is (a damaged page leaves the events before it readable).
func (s *Service) quarantineLog(ctx context.Context, id string, cause error) error {
	var p Platform
	channel := ""
	if evs, _ := s.deps.Store.Load(ctx, id); len(evs) > 0 {
		// Read the labels as recorded: the first event may be the damaged one.
		if c, ok := evs[0].Data.(roundtable.TableCreated); ok {
			p, channel = s.platforms[c.Config.Labels[labelPlatform]], c.Config.Labels[labelChannel]
		}
	}
	return s.quarantine(ctx, id, p, channel, cause)
}
