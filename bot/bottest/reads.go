package bottest

import (
	"context"
	"sync/atomic"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// Reads is a store that counts what is read of tables: logs, snapshots
// and archived rounds (every load, whatever the caller). A test of what a
// path reads from the file wraps the file in it.
type Reads struct {
	*store.DB
	n atomic.Int64 // reads so far
}

func (s *Reads) Load(ctx context.Context, table string) ([]roundtable.Event, error) {
	s.n.Add(1)
	return s.DB.Load(ctx, table)
}

func (s *Reads) LoadFrom(ctx context.Context, table string, after uint64) ([]roundtable.Event, error) {
	s.n.Add(1)
	return s.DB.LoadFrom(ctx, table, after)
}

func (s *Reads) LoadSnapshot(ctx context.Context, table string) (*roundtable.State, []roundtable.Event, error) {
	s.n.Add(1)
	return s.DB.LoadSnapshot(ctx, table)
}

func (s *Reads) LoadRecentSnapshot(ctx context.Context, table string, keep int) (*roundtable.State, []roundtable.Event, error) {
	s.n.Add(1)
	return s.DB.LoadRecentSnapshot(ctx, table, keep)
}

func (s *Reads) LoadRounds(ctx context.Context, table string, from, to int) ([]roundtable.RoundRecord, error) {
	s.n.Add(1)
	return s.DB.LoadRounds(ctx, table, from, to)
}

// N returns how many reads were made so far.
func (s *Reads) N() int64 { return s.n.Load() }
