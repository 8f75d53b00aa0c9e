package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/store"
)

// annotateStore annotates the messages of stored tables (all of them when
// tables is empty) through the annotation cache: results are stored beside
// each table's log, and a message that already has one is not measured
// again. It writes one line per message: {"id":"TABLE/SEQ","table",
// "seq", then the result's fields, or "missing" with the reason}.
func (a *App) annotateStore(ctx context.Context, cfg Config, path string, tables []string, in analysis.Instrument, w io.Writer) error {
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("database %s: %w", path, err)
	}
	db, err := store.Open(path, store.Options{LockTimeout: time.Duration(cfg.Store.LockTimeout)})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer db.Close()
	tables, damaged, err := roundtable.Readable(ctx, db, tables)
	if err != nil {
		return err
	}
	return errors.Join(analysis.AnnotateTables(ctx, db, tables, in, w), damaged)
}
