package main

import (
	"context"
	"fmt"
	"os"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
	"github.com/roundtable-ai/roundtable/roundtable/export"
	"github.com/roundtable-ai/roundtable/store"
)

// exportAudit writes the annotations of the exported tables to path (no
// file when path is empty), pseudonymised like the log.
func (a *App) exportAudit(ctx context.Context, dbPath, path string, events []roundtable.Event, pseudo bool) error {
	if path == "" {
		return nil
	}
	// Pseudonyms are learnt over every exported log, as the log export
	// learns them, so both files name a person alike.
	seen := map[string]bool{}
	var order []string
	for _, e := range events {
		if !seen[e.Table] {
			seen[e.Table] = true
			order = append(order, e.Table)
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--audit: %w", err)
	}
	defer f.Close()
	err = a.readStore(ctx, dbPath, func(db store.Backend) error {
		for _, id := range order {
			anns, err := db.Annotations(ctx, id)
			if err != nil {
				return err
			}
			anns = audit.Visible(anns, roundtable.Viewer{Researcher: true, Organiser: true}) // the operator's
			if err := export.WriteAnnotations(f, events, anns, export.Options{Pseudonymize: pseudo}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return f.Close()
}
