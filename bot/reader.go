package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
)

// Tables is what a platform that shows tables itself (the web channel's
// room panel, feed, dashboard and downloads) reads of them, each as one
// viewer may see it (the visibility rule, roundtable.Viewer). It is the
// platform's only way to its tables: it never opens the store, nor knows
// the service's keys. A live table's state is its moderator's, folded as
// its events arrive (roundtable.Table.StateFor); an ended table, which
// leaves the service's memory, is folded once from the store and kept
// among the last ones read (shelf.go). Only the log and the audit, which
// a download or the dashboard shows as they are, are read from the store
// per request.
type Tables struct {
	svc      *Service
	platform string
}

// TableReader is implemented by platforms that show tables themselves: New
// hands each the Tables of its platform, before Run.
type TableReader interface {
	ReadTables(t *Tables)
}

// Tables returns the reader of platform's tables.
func (s *Service) Tables(platform string) *Tables { return &Tables{svc: s, platform: platform} }

// errNoTable is the answer about a channel that holds no table.
var errNoTable = roundtable.Errorf(roundtable.NotFound, "there is no table in this channel")

// Viewer is platform user user as the visibility rule knows them: the
// participant they are (or would be) at the platform's tables. Set
// Researcher and Organiser only for someone who may manage the table
// (MayManage).
func (t *Tables) Viewer(user string) roundtable.Viewer {
	return roundtable.Viewer{Participant: ParticipantID(t.platform, user)}
}

// Lookup returns the ID of the table in channel, if there is one.
func (t *Tables) Lookup(ctx context.Context, channel string) (string, bool, error) {
	id, ok, err := t.svc.deps.Store.Lookup(ctx, bindKey(t.platform, channel))
	if err != nil {
		return "", false, fmt.Errorf("look up the table of %s: %w", channel, err)
	}
	return id, ok, nil
}

// State returns the table in channel as v may see it now (read only; see
// roundtable.Table.StateFor). A channel without a table gives an error
// of code roundtable.NotFound.
func (t *Tables) State(ctx context.Context, channel string, v roundtable.Viewer) (*roundtable.State, error) {
	tb, err := t.table(ctx, channel)
	if err != nil {
		return nil, err
	}
	return tb.StateFor(ctx, v)
}

// Task returns the task of the table in channel: a dashboard's chart
// that needs the task's knowledge asks it (roundtable.Welfare).
func (t *Tables) Task(ctx context.Context, channel string) (roundtable.Task, error) {
	tb, err := t.table(ctx, channel)
	if err != nil {
		return nil, err
	}
	return tb.Task(), nil
}

// Log returns the log of the table in channel as v may see it now
// (roundtable.Visible), read from the store: what a download or a
// dashboard shows of it.
func (t *Tables) Log(ctx context.Context, channel string, v roundtable.Viewer) ([]roundtable.Event, error) {
	id, err := t.id(ctx, channel)
	if err != nil {
		return nil, err
	}
	evs, err := t.svc.deps.Store.Load(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load table %s: %w", id, err)
	}
	return roundtable.Visible(evs, v), nil
}

// Annotations returns the audit annotations of the table in channel that
// v may be shown (audit.Visible); none without an audit store.
func (t *Tables) Annotations(ctx context.Context, channel string, v roundtable.Viewer) ([]roundtable.Annotation, error) {
	store := t.svc.audit.cfg.Store
	if store == nil {
		return nil, nil
	}
	id, err := t.id(ctx, channel)
	if err != nil {
		return nil, err
	}
	anns, err := store.Annotations(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("annotations of table %s: %w", id, err)
	}
	return audit.Visible(anns, v), nil
}

// Recorded reports whether the table in ev's channel recorded the message
// event ev (a message the table refused is not recorded).
func (t *Tables) Recorded(ctx context.Context, ev *Event) (bool, error) {
	tb, err := t.table(ctx, ev.Channel)
	if err != nil {
		return false, err
	}
	var ok bool
	tb.Read(func(s *roundtable.State) { ok = s.Keys.Has(keyTypedMessage + ev.ID) })
	return ok, nil
}

// MayManage reports whether user u may manage the table in channel: stop
// it, close or extend its phases, export it with names (see ManagerOnly).
func (t *Tables) MayManage(ctx context.Context, channel string, u User) (bool, error) {
	tb, err := t.table(ctx, channel)
	if err != nil {
		return false, err
	}
	p, ok := t.svc.platforms[t.platform]
	if !ok {
		return false, fmt.Errorf("the service runs no platform %q", t.platform)
	}
	var starter string
	tb.Read(func(s *roundtable.State) { starter = s.Config.Labels[labelStarter] })
	return t.svc.manager(ctx, p, channel, starter, u)
}

// Ended returns when each ended table ended (its last event), by ID. A
// damaged table is left out; the others are listed.
func (t *Tables) Ended(ctx context.Context) (map[string]time.Time, error) {
	sums, err := t.svc.deps.Store.Tables(ctx)
	if err != nil && !roundtable.IsDamage(err) { // damaged tables are the operator's: the rest are listed
		return nil, fmt.Errorf("list tables: %w", err)
	}
	out := map[string]time.Time{}
	for _, s := range sums {
		if s.Status == roundtable.StatusEnded {
			out[s.ID] = s.Updated
		}
	}
	return out, nil
}

// id returns the ID of the table in channel, or errNoTable.
func (t *Tables) id(ctx context.Context, channel string) (string, error) {
	id, ok, err := t.Lookup(ctx, channel)
	switch {
	case err != nil:
		return "", err
	case !ok:
		return "", errNoTable
	}
	return id, nil
}

// table returns the moderator of the table in channel: the live one, or
// the ended one on the shelf, folded once from the store.
func (t *Tables) table(ctx context.Context, channel string) (*roundtable.Table, error) {
	id, err := t.id(ctx, channel)
	if err != nil {
		return nil, err
	}
	return t.svc.readable(ctx, t.platform, id)
}

// readable returns the moderator of table id of platform for reading: the
// live table when the service holds it (or is opening it), else the ended
// table from the shelf, else the table folded from the store, which goes
// on the shelf if it has ended and is made live (as any event for it
// would) if it has not.
func (s *Service) readable(ctx context.Context, platform, id string) (*roundtable.Table, error) {
	s.mu.Lock()
	sl, held := s.tables[id]
	s.mu.Unlock()
	if !held {
		if tb, ok := s.shelf.get(id); ok {
			return tb, nil
		}
		tb, ended, err := s.openEnded(ctx, platform, id)
		if err != nil || ended || s.ownedElsewhere(ctx, id) {
			return tb, err // another process drives it: this is it as stored
		}
	} else if lt := sl.done(); lt != nil {
		return lt.table, nil
	}
	lt, err := s.tableByID(ctx, platform, id)
	if err != nil {
		return nil, err
	}
	return lt.table, nil
}

// openEnded folds table id from the store (its snapshot and what follows)
// and, if it has ended, puts it on the shelf. It does not act on the table.
func (s *Service) openEnded(ctx context.Context, platform, id string) (*roundtable.Table, bool, error) {
	s.mu.Lock()
	damaged := s.damaged[id]
	s.mu.Unlock()
	if damaged != nil {
		return nil, false, quarantinedError(id)
	}
	var shelved *roundtable.Table
	defer func(shelve func(*roundtable.Table)) { shelve(shelved) }(s.shelf.fold(id))
	tb, err := openSafely(ctx, s.deps.Store, s.deps.Clock, id, func(c roundtable.Config) (roundtable.Task, error) {
		if c.Labels[labelPlatform] != platform {
			return nil, errOtherPlatform
		}
		return s.deps.Task(c.Task, len(c.Participants))
	})
	switch {
	case errors.Is(err, errOtherPlatform):
		return nil, false, roundtable.Errorf(roundtable.NotFound, "table %s runs on another platform", id)
	case err != nil:
		return nil, false, err
	}
	var ended bool
	tb.Read(func(st *roundtable.State) { ended = st.Status == roundtable.StatusEnded })
	if ended {
		shelved = tb
	}
	return tb, ended, nil
}
