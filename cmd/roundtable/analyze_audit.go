package main

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
	"github.com/roundtable-ai/roundtable/store"
)

// writeAuditReports writes the audit reports (PROTOCOL.md sections 2 and
// 3) of the tables among ids that carry an audit (sentiment, stance or
// self-report annotations, from a live audit or `roundtable annotate
// --db`) into dir; no file when none does.
func writeAuditReports(ctx context.Context, db *store.DB, ids []string, dir string) ([]string, error) {
	var tables []*audit.Table
	for _, id := range ids {
		anns, err := db.Annotations(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("audit of table %s: %w", id, err)
		}
		audited := false
		for _, a := range anns {
			audited = audited || a.Instrument == "sentiment" || a.Instrument == "stance" || a.Instrument == audit.SelfReportInstrument
		}
		if !audited {
			continue
		}
		evs, err := db.Load(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("audit of table %s: %w", id, err)
		}
		t, err := audit.Build(evs, anns, 0)
		if err != nil {
			return nil, err
		}
		tables = append(tables, t)
	}
	if len(tables) == 0 {
		return nil, nil
	}
	return audit.WriteReports(dir, tables)
}
