package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

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
	if _, err := os.Stat(path); err != nil && path != etcdName {
		return fmt.Errorf("database %s: %w", path, err)
	}
	db, err := a.openStore(ctx, cfg, path, false)
	if err != nil {
		return err
	}
	defer db.Close()
	if len(tables) == 0 {
		sums, err := db.Tables(ctx)
		if err != nil {
			return err
		}
		for _, s := range sums {
			tables = append(tables, s.ID)
		}
	}
	out := bufio.NewWriter(w)
	defer out.Flush()
	cache := analysis.Cache{Store: db}
	var errs []error
	missing := 0
	for _, id := range tables {
		n, err := annotateTable(ctx, cache, db, id, in, out)
		missing += n
		if err != nil {
			if ctx.Err() != nil {
				return err
			}
			errs = append(errs, err)
		}
	}
	if missing > 0 {
		errs = append(errs, fmt.Errorf("%d messages have no %s (written with \"missing\"); run again to retry them", missing, in.Name()))
	}
	return errors.Join(errs...)
}

// annotateTable writes a table's annotations and returns how many are missing.
func annotateTable(ctx context.Context, cache analysis.Cache, db store.Backend, id string, in analysis.Instrument, w io.Writer) (int, error) {
	events, err := db.Load(ctx, id)
	if err != nil {
		return 0, fmt.Errorf("table %s: %w", id, err)
	}
	// Only what has been revealed is measured (and sent to a model): the
	// sealed messages of a running table's open phase wait for its close.
	// The operator sees what the organiser's export holds (private
	// messages of closed phases too).
	events = roundtable.Visible(events, roundtable.Viewer{Researcher: true, Organiser: true})
	anns, err := cache.AnnotateLog(ctx, events, in)
	missing := 0
	for _, ann := range anns {
		if ann.Missing != "" {
			missing++
		}
		if _, werr := w.Write(annotationLine(ann)); werr != nil {
			return missing, fmt.Errorf("write stdout: %w", werr)
		}
	}
	if err != nil {
		return missing, fmt.Errorf("table %s: %w", id, err)
	}
	return missing, nil
}

func annotationLine(ann roundtable.Annotation) []byte {
	idJSON, _ := json.Marshal(fmt.Sprintf("%s/%d", ann.Table, ann.Seq))
	table, _ := json.Marshal(ann.Table)
	b := fmt.Appendf(nil, `{"id":%s,"table":%s,"seq":%d`, idJSON, table, ann.Seq)
	if ann.Missing != "" {
		reason, _ := json.Marshal(ann.Missing)
		return fmt.Appendf(b, `,"missing":%s}`+"\n", reason)
	}
	if len(ann.Result) > 2 {
		b = append(append(b, ','), ann.Result[1:]...)
		return append(b, '\n')
	}
	return append(b, "}\n"...)
}
