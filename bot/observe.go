package bot

import (
	"context"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// observed is the store a table's moderator writes through: every event
// the store accepts, and every log it loads, goes to the table's planner,
// so the outbox sees exactly the events that are durable, in order. It
// runs inside the moderator's lock; the planner only folds and queues.
//
// It keeps the store's snapshots (roundtable.SnapshotStore) working: a
// table opens from its latest snapshot, and so does its planner, unless
// the posts implied before the snapshot were not all delivered (the
// delivery watermark, records.go), in which case the planner folds the
// whole log.
type observed struct {
	roundtable.Store
	mu     sync.Mutex
	plan   *planner
	err    func(error)
	opened bool               // the moderator replayed the log: feed what comes
	read   bool               // the log was read (so a failed open is a bad log)
	snap   *roundtable.State  // a copy of the snapshot the log was read from
	loaded []roundtable.Event // the events read (after snap)
}

var _ roundtable.SnapshotStore = (*observed)(nil)

// bind connects the planner to the courier of the table's platform;
// brief is what the intro says of the task, at a table in a given state.
func (o *observed) bind(c *courier, channel string, brief func(*roundtable.State) string, sent *sentLog) {
	o.plan.channel, o.plan.brief, o.plan.done, o.plan.sent = channel, brief, sent.has, sent
	o.plan.emit = func(in intent) { c.enqueue(in, sent) }
}

func (o *observed) Append(ctx context.Context, table string, events []roundtable.Event) error {
	if err := o.Store.Append(ctx, table, events); err != nil {
		return err
	}
	o.appended(events)
	return nil
}

// AppendSnapshot implements roundtable.SnapshotStore.
func (o *observed) AppendSnapshot(ctx context.Context, table string, events []roundtable.Event, snap *roundtable.State) error {
	ss, ok := o.Store.(roundtable.SnapshotStore)
	if !ok {
		return o.Append(ctx, table, events)
	}
	if err := ss.AppendSnapshot(ctx, table, events, snap); err != nil {
		return err
	}
	o.appended(events)
	return nil
}

func (o *observed) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	events, err := o.Store.Load(ctx, table)
	if err != nil {
		return nil, err
	}
	o.read1(nil, events)
	return events, nil
}

// LoadSnapshot implements roundtable.SnapshotStore.
func (o *observed) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	ss, ok := o.Store.(roundtable.SnapshotStore)
	if !ok {
		events, err := o.Load(ctx, table)
		return nil, events, err
	}
	snap, events, err := ss.LoadSnapshot(ctx, table)
	if err != nil {
		return nil, nil, err
	}
	o.readSnapshot(snap, events)
	return snap, events, nil
}

// readSnapshot keeps the planner's copy of snap (the moderator takes snap
// over) and the events after it.
func (o *observed) readSnapshot(snap *roundtable.State, events []roundtable.Event) {
	var copied *roundtable.State
	if snap != nil {
		copied = plannerCopy(snap)
	}
	o.read1(copied, events)
}

// store is what the table's moderator writes through: o, or, when the
// store archives ended rounds (roundtable.ArchiveStore, store.DB), o with
// that capability, so that a long live table keeps only its recent rounds.
func (o *observed) store() roundtable.Store {
	if as, ok := o.Store.(roundtable.ArchiveStore); ok {
		return archivingObserved{o, as}
	}
	return o
}

// archivingObserved is observed over a roundtable.ArchiveStore.
type archivingObserved struct {
	*observed
	as roundtable.ArchiveStore
}

var _ roundtable.ArchiveStore = archivingObserved{}

// LoadRecentSnapshot implements roundtable.ArchiveStore; the planner
// gets its copy of the snapshot as from LoadSnapshot (it reads no round
// that is archived).
func (a archivingObserved) LoadRecentSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	snap, events, err := a.as.LoadRecentSnapshot(ctx, table, keep)
	if err != nil {
		return nil, nil, err
	}
	a.readSnapshot(snap, events)
	return snap, events, nil
}

// LoadRounds implements roundtable.ArchiveStore.
func (a archivingObserved) LoadRounds(ctx context.Context, table string, from, to int) ([]roundtable.RoundRecord, error) {
	return a.as.LoadRounds(ctx, table, from, to)
}

// read1 keeps what was read for open, or, once open (the reload after a
// failed write), folds it again.
func (o *observed) read1(snap *roundtable.State, events []roundtable.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.opened {
		o.snap, o.loaded, o.read = snap, events, true
		return
	}
	o.plan.resetTo(snap)
	o.feedLocked(events)
}

// appended feeds new events; a new table has no log to open.
func (o *observed) appended(events []roundtable.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.opened = true
	o.feedLocked(events)
}

// open feeds what was read when the moderator opened the table, once it
// has replayed it (a log that does not replay implies nothing). When the
// posts implied before the snapshot were not all delivered, the planner
// folds the whole log instead.
func (o *observed) open(ctx context.Context) error {
	o.mu.Lock()
	snap, events := o.snap, o.loaded
	o.snap, o.loaded = nil, nil
	o.mu.Unlock()
	if snap != nil && o.plan.sent != nil && o.plan.sent.watermark() < snap.Seq {
		all, err := o.Store.Load(ctx, o.plan.table)
		if err != nil {
			return err
		}
		snap, events = nil, all
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.opened = true
	o.plan.resetTo(snap)
	o.plan.reopened = true
	o.feedLocked(events)
	o.plan.reopened = false
	return nil
}

func (o *observed) feedLocked(events []roundtable.Event) {
	if err := o.plan.feed(events); err != nil && o.err != nil {
		o.err(err)
	}
}

// readLog reports whether the log was read before the moderator opened it:
// when opening then fails, the log itself is at fault.
func (o *observed) readLog() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.read
}
