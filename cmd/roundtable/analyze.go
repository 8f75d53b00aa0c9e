package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/sync/errgroup"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/earlystop"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/store"
)

// analyzeFlags are the flags of `roundtable analyze`.
type analyzeFlags struct {
	db, out        string
	acts, embed    string
	stance         string // chatroom private messages: lexicon or llm
	seed           int64
	concurrency    int
	annotate       annotateFlags // model flags shared with annotate
	tablesExplicit []string
}

func (a *App) analyzeCmd() *cobra.Command {
	var f analyzeFlags
	cmd := &cobra.Command{
		Use:   "analyze RUN_DIR | --db FILE --out DIR",
		Short: "Write the RoundTable paper's tables and figures (CSV, PNG, SVG) from stored runs",
		Long: `Reads every table of a run directory's roundtable.db (or of --db FILE, headless
or live) and writes the RoundTable paper's tables and figures that the runs
support into --out (default RUN_DIR/analysis): Table 1 (exchange economy),
Figure 2 (utility and share not yet agreed per round), Figure 3
(recommendation MAE/RMSE per round, scored from the truth in each table's
log), Tables 2, 10 and 11 (early stopping, 5-fold cross-validation with
folds drawn from --seed), Table 8 (words, Flesch-Kincaid grade and
information difference per round), Table 9 and Figure 4 (dialogue acts and
their transition graph). Each is a CSV file, figures also PNG and SVG;
index.md says what each file shows and what the runs could not support.
Tables with an audit (an audit in their config, or sentiment or stance
annotations from a live audit or annotate --db) also get the audit reports
in --out/audit: audit_summary.csv (share of chats with an unwarranted
change, kappa of the stance classifier against self-reports, which are the
answers of stance surveys in the log, bias slopes), audit_trajectories.csv
(S, ΔS and stance per message), audit_changes.csv (per bot),
audit_slopes.csv, and sentiment and stance trajectories per table (PNG and
SVG).

Readability and dialogue acts are stored as annotations beside each table's
log the first time (so the database is opened for writing; stop a server
using it, or analyze a backup): running analyze again asks no model again.
--acts llm labels dialogue acts with the configured [[llm]] endpoint (or the
--llm-* flags), --samples answers a message with a majority; the offline
default is the cue-phrase tagger, named as such in index.md. --embedding llm
embeds messages with the endpoint's /v1/embeddings (stored the same way);
the default is a hashed TF-IDF vector, computed again each time (no model).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.paths(args); err != nil {
				return err
			}
			cfg, err := LoadConfig(a.configPath)
			if err != nil {
				return err
			}
			return a.runAnalyze(cmd.Context(), cfg, f, cmd.OutOrStdout())
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "database to analyze (instead of RUN_DIR/roundtable.db), or etcd for the cluster of [store]")
	fl.StringVar(&f.out, "out", "", "output directory (default RUN_DIR/analysis; required with --db)")
	fl.StringVar(&f.acts, "acts", "cue-phrases", "dialogue acts: cue-phrases (offline) or llm")
	fl.StringVar(&f.stance, "stance", "lexicon", "stance of the chatroom's private messages: lexicon (offline keyword classifier) or llm (presence and signal classifiers, --samples answers each, tie re-asked)")
	fl.StringVar(&f.embed, "embedding", "hashed-tfidf", "embeddings for the information difference: hashed-tfidf (offline) or llm")
	fl.Int64Var(&f.seed, "seed", 1, "seed of the cross-validation folds")
	fl.IntVar(&f.concurrency, "concurrency", 8, "tables measured at once (a model-backed instrument waits on its endpoint)")
	fl.StringSliceVar(&f.tablesExplicit, "table", nil, "analyze only these table IDs (default all)")
	fl.IntVar(&f.annotate.samples, "samples", 10, "model answers per dialogue-act label; the majority wins")
	fl.StringVar(&f.annotate.endpoint, "endpoint", "", "the [[llm]] endpoint to ask (default the first)")
	fl.StringVar(&f.annotate.negotiate, "negotiate", "", "label dialogue acts by negotiation between two or three [[llm]] endpoints")
	fl.IntVar(&f.annotate.maxTurns, "max-turns", 3, "negotiation: turns per session before roles flip")
	fl.StringVar(&f.annotate.embeddingModel, "embedding-model", "text-embedding-3-small", "--embedding llm: the model of /v1/embeddings")
	f.annotate.llm.register(fl)
	return cmd
}

// paths resolves RUN_DIR, --db and --out.
func (f *analyzeFlags) paths(args []string) error {
	switch {
	case len(args) == 1 && f.db != "":
		return usagef("give RUN_DIR or --db FILE, not both")
	case len(args) == 1:
		f.db = filepath.Join(args[0], "roundtable.db")
		if f.out == "" {
			f.out = filepath.Join(args[0], "analysis")
		}
	case f.db == "":
		return usagef("name a run directory (RUN_DIR) or a database (--db FILE)")
	case f.out == "":
		return usagef("--db needs --out DIR")
	}
	if _, err := os.Stat(f.db); err != nil && f.db != etcdName {
		return usagef("database %s: %v", f.db, err)
	}
	return nil
}

// analyzeInstruments builds the instruments of an analysis.
func (a *App) analyzeInstruments(ctx context.Context, cfg Config, f analyzeFlags) (*measurers, error) {
	m := &measurers{missing: map[string]int{}}
	af := f.annotate
	af.instrument, af.method = "readability", ""
	var err error
	if m.readability, err = a.buildInstrument(ctx, cfg, af); err != nil {
		return m, err
	}
	af.instrument, af.method = "dialogue-acts", f.acts
	if m.acts, err = a.buildInstrument(ctx, cfg, af); err != nil {
		return m, fmt.Errorf("--acts: %w", err)
	}
	if f.embed != "hashed-tfidf" {
		af.instrument, af.method = "embedding", f.embed
		if m.embedding, err = a.buildInstrument(ctx, cfg, af); err != nil {
			return m, fmt.Errorf("--embedding: %w", err)
		}
	}
	return m, nil
}

func (a *App) runAnalyze(ctx context.Context, cfg Config, f analyzeFlags, out io.Writer) error {
	if f.concurrency < 1 {
		return usagef("--concurrency: must be at least 1, not %d", f.concurrency)
	}
	ms, err := a.analyzeInstruments(ctx, cfg, f)
	if err != nil {
		return err
	}
	db, err := a.openStore(ctx, cfg, f.db, false)
	if errors.Is(err, store.ErrLocked) {
		return fmt.Errorf("%w; analyze stores annotations beside the logs, so stop the server using it or analyze a copy (roundtable backup COPY.db, then analyze --db COPY.db --out DIR)", err)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	ms.db = db
	ids := f.tablesExplicit
	if len(ids) == 0 {
		if ids, err = tableIDs(ctx, db); err != nil {
			return err
		}
	}
	tables, problems, err := a.measureAll(ctx, ms, ids, f.concurrency)
	if err != nil {
		return err
	}
	rep := report.Build(tables, f.seed)
	chat, err := a.chatroomStanceFor(ctx, cfg, f, db)
	if err != nil {
		return err
	}
	more, panels, err := protocolArtifacts(ctx, db, ids, chat)
	if err != nil {
		return err
	}
	if chat.missing > 0 {
		problems = append(problems, fmt.Sprintf("%d private messages have no stance (a model failed; they are left out); run analyze again to retry them.", chat.missing))
	}
	rep.Artifacts = append(rep.Artifacts, more...)
	if more, err = panelReports(ctx, panels); err != nil {
		return err
	}
	rep.Artifacts = append(rep.Artifacts, more...)
	rep.Skipped = append(rep.Skipped, problems...)
	missing := ms.missingError()
	if missing != nil {
		rep.Skipped = append(rep.Skipped, missing.Error()+".")
	}
	files, err := report.Write(f.out, rep, ms.intro(f, tables))
	if err != nil {
		return err
	}
	audits, err := writeAuditReports(ctx, db, ids, filepath.Join(f.out, "audit"))
	if err != nil {
		return err
	}
	files = append(files, audits...)
	fmt.Fprintf(out, "%d tables analyzed; %d files in %s (see %s)\n", len(tables), len(files), f.out, filepath.Join(f.out, "index.md"))
	for _, s := range rep.Skipped {
		fmt.Fprintln(out, "not produced: "+s)
	}
	if len(tables) == 0 {
		return fmt.Errorf("no table of %s could be analyzed", f.db)
	}
	return missing
}

// measureAll measures the tables, n at once, in ids' order; a table that
// cannot be measured, or has not ended, is a problem (said in index.md),
// not an error.
func (a *App) measureAll(ctx context.Context, ms *measurers, ids []string, n int) ([]report.Table, []string, error) {
	bar := a.progress(len(ids))
	defer bar.Finish()
	measured := make([]report.Table, len(ids))
	failed := make([]error, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(n)
	for i, id := range ids {
		g.Go(func() error {
			measured[i], failed[i] = ms.measure(gctx, id)
			_ = bar.Add(1)
			return gctx.Err()
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, err
	}
	var tables []report.Table
	var problems []string
	running := 0
	for i, err := range failed {
		switch {
		case errors.Is(err, errNotEnded):
			running++
		case err != nil:
			problems = append(problems, fmt.Sprintf("Table %s: %v", ids[i], err))
		default:
			tables = append(tables, measured[i])
		}
	}
	if running > 0 {
		problems = append(problems, fmt.Sprintf("%d tables have not ended (still running, or interrupted: run the same sim again to finish them) and are left out.", running))
	}
	return tables, problems, nil
}

// missingError says which messages have no annotation because a model
// failed: the files leave them out, and the next run asks again.
func (m *measurers) missingError() error {
	var parts []string
	for _, k := range sim.Keys(m.missing) {
		parts = append(parts, fmt.Sprintf("%d messages have no %s", m.missing[k], k))
	}
	if len(parts) == 0 {
		return nil
	}
	return fmt.Errorf("%s (a model failed; they are left out of the files); run analyze again to retry them", strings.Join(parts, ", "))
}

func tableIDs(ctx context.Context, db store.Backend) ([]string, error) {
	sums, err := db.Tables(ctx)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	ids := make([]string, len(sums))
	for i, s := range sums {
		ids[i] = s.ID
	}
	return ids, nil
}

// intro is the head of index.md: what was analyzed, and with what.
func (m *measurers) intro(f analyzeFlags, ts []report.Table) string {
	tasks := map[string]int{}
	for _, t := range ts {
		tasks[t.Task]++
	}
	var parts []string
	for _, k := range sim.Keys(tasks) {
		parts = append(parts, fmt.Sprintf("%d %s", tasks[k], k))
	}
	emb := "hashed TF-IDF vectors (offline, `hashed-tfidf`; no model)"
	if m.embedding != nil {
		emb = "`" + m.embedding.Model() + "` embeddings"
	}
	return fmt.Sprintf("From `%s`: %s tables. Message length and Flesch-Kincaid grade by `%s`; dialogue acts by `%s`; information difference from %s. "+
		"Annotations are stored beside each table's log: a re-run asks no model again. Early stopping: %d-fold cross-validation, folds drawn from seed %d.",
		f.db, strings.Join(parts, ", "), m.readability.Model(), m.acts.Model(), emb, earlystop.DefaultFolds, f.seed)
}
