package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Owners says which process serves each table when several processes
// share a store (a cluster over etcd, see store/etcdstore): a table is
// served by exactly one process at a time, its owner, and every write to
// its log is refused to any other (fencing). When a process dies, its
// tables are orphaned and the others campaign for them; the winner
// resumes each one from its log (deadlines re-armed, posts the log
// implies and the records do not show delivered sent once, see
// outbox.go). Without Owners (Deps.Owners nil) the service is the only
// process and serves every table of its platforms.
//
// Implementations must be safe for concurrent use.
type Owners interface {
	// Acquire makes this process the owner of table unless another
	// process owns it, and reports whether this process owns it now.
	Acquire(ctx context.Context, table string) (bool, error)
	// Release lets table go: another process may take it.
	Release(ctx context.Context, table string) error
	// Owner returns the process that owns table, and false when none
	// does (its owner died and no other took it yet).
	Owner(ctx context.Context, table string) (Owner, bool, error)
	// Changes delivers, in order, the changes the service acts on (a
	// write the store refused because another process owns the table
	// comes as Lost); it is closed when the process leaves the cluster.
	Changes() <-chan OwnerChange
}

// Owner is the process that owns a table.
type Owner struct {
	Self bool // this process
	// Addrs are where the owner serves, by platform name (the web
	// channel's URL under "web"): a request for the table that reaches
	// another process is sent on there.
	Addrs map[string]string
}

// OwnerChange is a change of ownership the service acts on.
type OwnerChange struct {
	Kind  OwnerChangeKind
	Table string // empty for Rescan
}

// OwnerChangeKind says what changed.
type OwnerChangeKind int

// The kinds of OwnerChange.
const (
	// Orphaned: the table's owner let it go or died; the service
	// campaigns for it if it may serve it.
	Orphaned OwnerChangeKind = iota + 1
	// Lost: this process no longer owns the table; the service stops
	// serving it at once, writing nothing more.
	Lost
	// Rescan: changes may have been missed; the service campaigns for
	// every open table it may serve.
	Rescan
)

// Partitioned is implemented by platforms whose connection carries the
// events of part of their places only: a Discord process runs a range of
// the bot's shards, each carrying the guilds of its shard. A table is
// served by a process whose platform carries its space (Event.Space, kept
// in the table's labels); a table without one by any.
type Partitioned interface {
	// Carries reports whether the platform carries the events of space.
	Carries(space string) bool
	// Moved is sent on when what the platform carries changed (a shard
	// taken or let go).
	Moved() <-chan struct{}
}

// Adopter is implemented by platforms that keep a table's channel in
// memory (the web channel's rooms). When tables move between processes,
// the process that takes a table over reads its channel again from the
// store before posting in it (Adopt), and the one that lost it lets the
// channel go (Abandon).
type Adopter interface {
	Adopt(ctx context.Context, channel string) error
	Abandon(channel string)
}

// labelSpace keeps Event.Space of a table's start: the guild of a Discord
// table, which says the shard that carries its events.
const labelSpace = "space"

// errElsewhere is why the service does not act on a table another process
// owns.
var errElsewhere = errors.New("another process serves this table")

// elsewhere is the error of an event for table id that another process
// owns: the platform that delivered it sends it on there, or it is
// tried again once the table has moved.
func elsewhere(id string) error {
	return &roundtable.Error{Code: roundtable.Conflict, Err: errElsewhere,
		Message: fmt.Sprintf("table %s is served by another server of this bot just now; try again in a moment", id)}
}

// own makes sure this process owns table id (acquiring it if no process
// does), or returns elsewhere's error.
func (s *Service) own(ctx context.Context, id string) error {
	if s.deps.Owners == nil {
		return nil
	}
	ok, err := s.deps.Owners.Acquire(ctx, id)
	if err != nil {
		return fmt.Errorf("own table %s: %w", id, err)
	}
	if !ok {
		return elsewhere(id)
	}
	s.mu.Lock()
	s.owned[id] = true
	s.mu.Unlock()
	return nil
}

// release lets table id go, logging a failure (the lease's end lets it go
// anyway).
func (s *Service) release(ctx context.Context, id string) {
	if s.deps.Owners == nil {
		return
	}
	s.mu.Lock()
	delete(s.owned, id)
	s.mu.Unlock()
	if err := s.deps.Owners.Release(ctx, id); err != nil {
		s.log.Warn("release table", "table", id, "err", err)
	}
}

// ownedElsewhere reports whether another process owns table id.
func (s *Service) ownedElsewhere(ctx context.Context, id string) bool {
	if s.deps.Owners == nil {
		return false
	}
	o, ok, err := s.deps.Owners.Owner(ctx, id)
	return err == nil && ok && !o.Self
}

// carries reports whether platform p carries the events of space (see
// Partitioned).
func carries(p Platform, space string) bool {
	pp, ok := p.(Partitioned)
	return !ok || space == "" || pp.Carries(space)
}

// adoptChannel reads a table's channel again before the service posts in it, when
// the table may have been served by another process before.
func (s *Service) adoptChannel(ctx context.Context, p Platform, channel string) error {
	a, ok := p.(Adopter)
	if s.deps.Owners == nil || !ok {
		return nil
	}
	if err := a.Adopt(ctx, channel); err != nil {
		return fmt.Errorf("%s: take channel %s over: %w", p.Name(), channel, err)
	}
	return nil
}

// notMine notes that table id, which the service opened, belongs to a
// platform it does not run or a place its platform does not carry: it is
// let go, and not campaigned for again until a rescan.
func (s *Service) notMine(ctx context.Context, id string) {
	if s.deps.Owners == nil {
		return
	}
	s.mu.Lock()
	s.foreign[id] = struct{}{}
	s.mu.Unlock()
	s.release(ctx, id)
}
