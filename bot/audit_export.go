package bot

import (
	"bytes"
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

// exportAudit sends, after a table's log, its audit (the annotations, as
// <table>.audit.jsonl) when it has one, pseudonymised like the log, as
// viewer v may see it (audit.Visible).
func (s *Service) exportAudit(ctx context.Context, ev *Event, up Uploader, table string, events []roundtable.Event, v roundtable.Viewer) error {
	if s.audit.cfg.Store == nil {
		return nil
	}
	anns, err := s.audit.cfg.Store.Annotations(ctx, table)
	anns = audit.Visible(anns, v)
	if err != nil || len(anns) == 0 {
		return err
	}
	keep := v.Researcher
	var buf bytes.Buffer
	if err := export.WriteAnnotations(&buf, events, anns, export.Options{Pseudonymize: !keep}); err != nil {
		return fmt.Errorf("export audit: %w", err)
	}
	note := fmt.Sprintf("Audit of table %s: %d annotations (sentiment, stance); self-reports are the survey answers of the log", table, len(anns))
	if err := up.Upload(ctx, ev, table+".audit.jsonl", buf.Bytes(), note); err != nil {
		return fmt.Errorf("upload audit: %w", err)
	}
	return nil
}
