package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
)

// annotateStore annotates the messages of stored tables (all of them when
// tables is empty) through the annotation cache: results are stored beside
// each table's log, and a message that already has one is not measured
// again. It writes one line per message: {"id":"TABLE/SEQ","table",
// "seq", then the result's fields, or "missing" with the reason}.
func (a *App) annotateStore(ctx context.Context, cfg Config, path string, tables []string, in analysis.Instrument, w io.Writer) error {
	if _, err := os.Stat(path); err != nil && path != etcdName {
		return fmt.Errorf("database %s: %w", path, err)
	}
	db, err := a.openStore(ctx, cfg, path, false)
	if err != nil {
		return err
	}
	defer db.Close()
	tables, damaged, err := roundtable.Readable(ctx, db, tables)
	if err != nil {
		return err
	}
	return errors.Join(analysis.AnnotateTables(ctx, db, tables, in, w), damaged)
}
