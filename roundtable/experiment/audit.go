package experiment

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
)

// writeAuditReports writes the audit reports (docs/protocol.md#live-audit) of the tables among ids that carry an audit (sentiment or stance
// annotations, from a live audit or `roundtable annotate --db`, or an
// audit config; self-reports are read from the survey answers of the log
// and, for logs written before, from self-report annotations) into dir;
// no file when none does.
func writeAuditReports(ctx context.Context, db Store, ids []string, dir string) ([]string, error) {
	var tables []*audit.Table
	for _, id := range ids {
		anns, err := db.Annotations(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("audit of table %s: %w", id, err)
		}
		evs, err := db.Load(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("audit of table %s: %w", id, err)
		}
		if !audited(evs, anns) {
			continue
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

// audited reports whether a table has an audit to report: an audit in its
// config, or sentiment, stance or self-report annotations.
func audited(evs []roundtable.Event, anns []roundtable.Annotation) bool {
	if len(evs) > 0 {
		if c, ok := evs[0].Data.(roundtable.TableCreated); ok && c.Config.Audit != nil {
			return true
		}
	}
	for _, a := range anns {
		if a.Instrument == "sentiment" || a.Instrument == "stance" || a.Instrument == audit.SelfReportInstrument {
			return true
		}
	}
	return false
}
