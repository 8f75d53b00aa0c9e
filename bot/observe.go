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
type observed struct {
	roundtable.Store
	mu     sync.Mutex
	plan   *planner
	err    func(error)
	opened bool               // the moderator replayed the log: feed it
	loaded []roundtable.Event // the log loaded before then
	read   bool               // the log was read (so a failed open is a bad log)
}

func (o *observed) Append(ctx context.Context, table string, events []roundtable.Event) error {
	if err := o.Store.Append(ctx, table, events); err != nil {
		return err
	}
	o.mu.Lock()
	o.opened = true // a new table has no log to load
	o.mu.Unlock()
	o.feed(events, false)
	return nil
}

func (o *observed) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	events, err := o.Store.Load(ctx, table)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	opened := o.opened
	if !opened {
		o.loaded, o.read = events, true
	}
	o.mu.Unlock()
	if opened {
		o.feed(events, true) // the reload after a failed write
	}
	return events, nil
}

// open feeds the log loaded when the moderator opened the table, once the
// moderator has replayed it: a log that does not replay implies nothing.
func (o *observed) open() {
	o.mu.Lock()
	events := o.loaded
	o.opened, o.loaded = true, nil
	o.mu.Unlock()
	o.feed(events, true)
}

// feed hands events to the planner. A whole log (a load, also the reload
// after a failed write) starts the fold again; the courier drops intents it
// already holds or delivered.
func (o *observed) feed(events []roundtable.Event, whole bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if whole {
		o.plan.reset()
	}
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
