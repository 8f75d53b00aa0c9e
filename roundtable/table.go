package roundtable

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Table is the moderator of one table. Every change goes the same way: the
// request is validated against the current state and turned into events,
// the events are applied to the state (Apply checks each one again) and
// then appended to the store in one transaction. If the append fails, the
// state is rebuilt from the store, so it never holds an event the log does
// not, and the caller gets the error. A Table is safe for concurrent use.
type Table struct {
	mu    sync.Mutex
	state *State
	task  Task
	store Store
	clock Clock
	views viewCache
	// stored is how many ended rounds the store holds in the table's
	// latest snapshot (see ArchiveStore).
	stored int
}

// Create records a new table and returns its moderator.
func Create(ctx context.Context, store Store, clock Clock, task Task, id string, cfg Config) (*Table, error) {
	cfg, err := cfg.WithDefaults().withSelfReports()
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, Errorf(Invalid, "table id is empty")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if task.Kind() != cfg.Task.Kind {
		return nil, Errorf(Invalid, "task: config says %q but the task is %q", cfg.Task.Kind, task.Kind())
	}
	t := &Table{state: &State{}, task: task, store: store, clock: clock}
	if err := t.commit(ctx, id, "", "", TableCreated{Config: cfg}); err != nil {
		return nil, fmt.Errorf("create table %s: %w", id, err)
	}
	return t, nil
}

// Open rebuilds a stored table's moderator from its log (see OpenFunc).
func Open(ctx context.Context, store Store, clock Clock, task Task, id string) (*Table, error) {
	return OpenFunc(ctx, store, clock, id, func(Config) (Task, error) { return task, nil })
}

// ID returns the table's ID.
func (t *Table) ID() string { return t.state.ID }

// Task returns the table's task (a task sized by its seats changes once,
// when the table starts: see Begin).
func (t *Table) Task() Task {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.task
}

// Read calls fn with the current state under the table's lock. fn must not
// keep the state or anything it references past its return.
func (t *Table) Read(fn func(s *State)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fn(t.state)
}

// Snapshot returns a deep copy of the current state. On an ArchiveStore
// the first State.Archived rounds are stubs; Full and Rounds read them.
func (t *Table) Snapshot() *State {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state.Clone()
}

// Join seats a participant. Joining again is a no-op.
func (t *Table) Join(ctx context.Context, p Participant, key string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.state
	if s.Status == StatusEnded {
		return Errorf(Conflict, "the table has ended")
	}
	if _, ok := s.Participant(p.ID); ok {
		return nil
	}
	if err := p.validate(); err != nil {
		return err
	}
	return t.commitLocked(ctx, key, p.ID, ParticipantJoined{Participant: p})
}

// Leave frees a participant's seat.
func (t *Table) Leave(ctx context.Context, id, key string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.state.Participant(id); !ok {
		return Errorf(NotFound, "%q is not at this table", id)
	}
	return t.commitLocked(ctx, key, id, ParticipantLeft{ID: id})
}

// Start opens the first round. It needs at least one participant.
func (t *Table) Start(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state.Status != StatusCreated {
		return Errorf(Conflict, "the table has already started")
	}
	if len(t.state.Participants) == 0 {
		return Errorf(Conflict, "nobody is at the table yet")
	}
	return t.commitLocked(ctx, "", "", t.firstOpening())
}

// Submit records actions. Valid actions are recorded together in one
// transaction; the returned slice has one entry per action (nil when it was
// recorded, an *Error saying why not otherwise: a rejected ballot is
// recorded as rejected and still reports its reason). An action whose key
// was already recorded reports code Duplicate and records nothing. The
// final error is for failures of the store.
func (t *Table) Submit(ctx context.Context, actions ...Action) ([]error, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	errs := make([]error, len(actions))
	var batch []Event
	for i, a := range actions {
		evs, err := t.decide(a)
		errs[i] = err
		if err := t.applyAll(evs); err != nil {
			return errs, t.rollback(ctx, err)
		}
		batch = append(batch, evs...)
	}
	if len(batch) == 0 {
		return errs, nil
	}
	if err := t.append(ctx, batch); err != nil {
		return errs, t.rollback(ctx, fmt.Errorf("record actions: %w", err))
	}
	return errs, nil
}

// Do records a single action, returning its error.
func (t *Table) Do(ctx context.Context, a Action) error {
	errs, err := t.Submit(ctx, a)
	if err != nil {
		return err
	}
	return errs[0]
}

func (t *Table) decide(a Action) ([]Event, error) {
	actor, key := a.Who()
	if key != "" {
		if t.state.Keys.Has(key) {
			return nil, Errorf(Duplicate, "already recorded")
		}
	}
	payloads, err := a.decide(t.state, t.task)
	evs := make([]Event, len(payloads))
	now := t.clock.Now()
	for i, p := range payloads {
		evs[i] = Event{Table: t.state.ID, Seq: t.state.Seq + uint64(i) + 1, Time: now, Actor: actor, Data: p}
		if i == 0 {
			evs[i].Key = key
		}
	}
	return evs, err
}

// applyAll applies events that are about to be recorded.
func (t *Table) applyAll(evs []Event) error {
	for _, e := range evs {
		if err := t.state.Apply(e); err != nil {
			return err
		}
	}
	return nil
}

// rollback rebuilds the state from the store after a failed write, so the
// state never holds events the log does not.
func (t *Table) rollback(ctx context.Context, cause error) error {
	s, stored, err := loadState(ctx, t.store, t.state.ID)
	if err != nil {
		return errors.Join(cause, fmt.Errorf("reload after failed write: %w", err))
	}
	t.state, t.stored = s, stored
	t.views = viewCache{}
	return cause
}

// commit appends and applies the given payloads as one transaction.
func (t *Table) commit(ctx context.Context, id, key, actor string, payloads ...Payload) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state.ID == "" {
		t.state.ID = id
	}
	return t.commitLocked(ctx, key, actor, payloads...)
}

func (t *Table) commitLocked(ctx context.Context, key, actor string, payloads ...Payload) error {
	if key != "" {
		if t.state.Keys.Has(key) {
			return nil
		}
	}
	now := t.clock.Now()
	evs := make([]Event, len(payloads))
	for i, p := range payloads {
		evs[i] = Event{Time: now, Actor: actor, Data: p}
		if i == 0 {
			evs[i].Key = key
		}
	}
	return t.commitEvents(ctx, evs)
}

// commitEvents numbers, applies and appends evs (their Time, Actor, Key
// and Data set) as one transaction.
func (t *Table) commitEvents(ctx context.Context, evs []Event) error {
	for i := range evs {
		evs[i].Table, evs[i].Seq = t.state.ID, t.state.Seq+1
		if err := t.state.Apply(evs[i]); err != nil {
			return t.rollback(ctx, err)
		}
	}
	if err := t.append(ctx, evs); err != nil {
		return t.rollback(ctx, fmt.Errorf("record %s: %w", evs[0].Type(), err))
	}
	return nil
}
