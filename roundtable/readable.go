package roundtable

import (
	"context"
	"errors"
	"fmt"
)

// LogReader reads tables' logs: what every command that reads a database
// needs of its store.
type LogReader interface {
	Load(ctx context.Context, table string) ([]Event, error)
	Tables(ctx context.Context) ([]Summary, error)
}

// Readable returns the tables among ids whose logs load from st (every
// table of st when ids is empty), in order, and apart from them the
// damage that left tables out (IsDamage: a damaged page or event), each
// left-out table named. Any other error stops it and is err.
func Readable(ctx context.Context, st LogReader, ids []string) (readable []string, damaged, err error) {
	if len(ids) == 0 {
		list, err := st.Tables(ctx)
		if err != nil && !IsDamage(err) {
			return nil, nil, fmt.Errorf("list tables: %w", err)
		}
		damaged = err
		for _, s := range list {
			ids = append(ids, s.ID)
		}
	}
	for _, id := range ids {
		_, err := st.Load(ctx, id)
		switch {
		case IsDamage(err) && DamagedTables(damaged)[id] != nil:
			continue // named by Tables already
		case IsDamage(err):
			damaged = errors.Join(damaged, fmt.Errorf("table %s left out: %w", id, err))
			continue
		case err != nil:
			return nil, nil, fmt.Errorf("table %s: %w", id, err)
		}
		readable = append(readable, id)
	}
	return readable, damaged, nil
}

// Diagnose returns why table id's log does not load or replay from st,
// or "" when it does: the damage met, or the event that does not apply.
func Diagnose(ctx context.Context, st LogReader, id string) string {
	evs, err := st.Load(ctx, id)
	if err == nil {
		_, err = Replay(evs)
	}
	var le *LogError
	switch cause := DamagedTables(err)[id]; {
	case cause != nil:
		return cause.Error()
	case errors.As(err, &le):
		return fmt.Sprintf("event %d (%s): %v", le.Seq, le.Type, le.Err)
	case err != nil:
		return err.Error()
	}
	return ""
}
