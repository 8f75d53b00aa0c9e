package experiment

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/earlystop"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Store is what Analyze reads stored tables from and keeps its
// annotations in, beside each table's log.
type Store interface {
	roundtable.Store
	roundtable.AnnotationStore
	PutAnnotations(ctx context.Context, as []roundtable.Annotation) error
}

// AnalyzeOptions say what Analyze measures and with what.
type AnalyzeOptions struct {
	Tables []string // the IDs of the tables to analyze
	Out    string   // the directory the files go to
	Source string   // names the stored tables in index.md (the database's path)
	// Readability and Acts measure every message; Embedding embeds them
	// for the information difference (nil: hashed TF-IDF over each
	// table, computed again each time).
	Readability, Acts, Embedding analysis.Instrument
	// Stance classifies the stance of the chatroom's private messages
	// (protocol.Instruments: Annotations is filled in from the store).
	Stance protocol.Instruments
	Seed   int64 // of the cross-validation folds
	// Transitions counts the dialogue-act transitions (Figures 4 to 6, the
	// dialogue-act stop): acts.SpeakerPairs, the paper's Eq. 1, is the
	// zero value.
	Transitions acts.Counting
	Concurrency int    // tables measured at once
	Progress    func() // called after each table measured
	// Pool analyzes tables of different provenance together (index.md
	// then lists each group); otherwise each provenance is analyzed
	// apart, in a directory named by its label.
	Pool bool
}

// Analysis is what Analyze wrote.
type Analysis struct {
	Tables  int      // tables analyzed
	Files   []string // files written
	Skipped []string // what the files could not show, and why
	// Missing says which messages have no annotation because a model
	// failed: the files leave them out, and the next run asks again.
	Missing error
}

// Analyze writes the papers' tables and figures from the stored tables:
// RoundTable's over every ended table, each protocol's report over its
// tables (package protocol), and the audit reports of the audited ones,
// with index.md saying what each file shows and what made the tables
// (their provenance). Tables of different provenance are analyzed apart,
// each group in its own directory, unless opt.Pool. A table that cannot
// be measured or has not ended is skipped, and said so.
func Analyze(ctx context.Context, st Store, opt AnalyzeOptions) (Analysis, error) {
	groups, err := groupByProvenance(ctx, st, opt.Tables, func(i int) string { return fmt.Sprintf("provenance-%d", i+1) })
	if err != nil {
		return Analysis{}, err
	}
	if opt.Pool || len(groups) < 2 {
		return analyzeTables(ctx, st, opt, provenanceMarkdown(groups, opt.Pool))
	}
	return analyzeApart(ctx, st, opt, groups)
}

// analyzeApart analyzes each provenance group in its own directory, and
// lists them in index.md.
func analyzeApart(ctx context.Context, st Store, opt AnalyzeOptions, groups []provenanceGroup) (Analysis, error) {
	var out Analysis
	var idx strings.Builder
	idx.WriteString("# Analysis by provenance\n\nThe tables were not all made alike, so each provenance is analyzed apart (analyze --pool pools them):\n\n")
	for _, g := range groups {
		sub := opt
		sub.Tables, sub.Out = g.Tables, filepath.Join(opt.Out, g.Label)
		res, err := analyzeTables(ctx, st, sub, provenanceMarkdown([]provenanceGroup{g}, false))
		out.Tables += res.Tables
		out.Files = append(out.Files, res.Files...)
		for _, s := range res.Skipped {
			out.Skipped = append(out.Skipped, g.Label+": "+s)
		}
		out.Missing = errors.Join(out.Missing, res.Missing)
		if err != nil {
			return out, err
		}
		fmt.Fprintf(&idx, "- [%s](%s/index.md), %d tables: %s\n", g.Label, g.Label, len(g.Tables), g.Provenance.Markdown())
	}
	path := filepath.Join(opt.Out, "index.md")
	if err := os.WriteFile(path, []byte(idx.String()), 0o644); err != nil {
		return out, fmt.Errorf("write %s: %w", path, err)
	}
	out.Files = append(out.Files, path)
	return out, nil
}

// analyzeTables analyzes opt.Tables together; provenance says in
// index.md what made them.
func analyzeTables(ctx context.Context, st Store, opt AnalyzeOptions, provenance string) (Analysis, error) {
	ms := &measurers{readability: opt.Readability, acts: opt.Acts, embedding: opt.Embedding, db: st, missing: map[string]int{}}
	tables, problems, err := ms.measureAll(ctx, opt.Tables, max(opt.Concurrency, 1), opt.Progress)
	if err != nil {
		return Analysis{}, err
	}
	rep := report.Build(tables, report.Options{Seed: opt.Seed, Transitions: opt.Transitions})
	in := opt.Stance
	in.Annotations = st
	if opt.Embedding != nil {
		in.Embedder, _ = analysis.EmbedderOf(opt.Embedding)
	}
	more, notes, used, err := protocolReports(ctx, st, opt.Tables, in)
	if err != nil {
		return Analysis{}, err
	}
	rep.Artifacts = append(rep.Artifacts, more...)
	rep.Skipped = append(append(rep.Skipped, problems...), notes...)
	out := Analysis{Tables: len(tables), Missing: ms.missingError()}
	if out.Missing != nil {
		rep.Skipped = append(rep.Skipped, out.Missing.Error()+".")
	}
	if out.Files, err = report.Write(opt.Out, rep, ms.intro(opt, tables, used)+"\n\n"+provenance); err != nil {
		return out, err
	}
	audits, err := writeAuditReports(ctx, st, opt.Tables, filepath.Join(opt.Out, "audit"))
	out.Files, out.Skipped = append(out.Files, audits...), rep.Skipped
	return out, err
}

// measureAll measures the tables, n at once, in ids' order; a table that
// cannot be measured, or has not ended, is a problem (said in index.md),
// not an error.
func (m *measurers) measureAll(ctx context.Context, ids []string, n int, progress func()) ([]report.Table, []string, error) {
	measured := make([]report.Table, len(ids))
	failed := make([]error, len(ids))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(n)
	for i, id := range ids {
		g.Go(func() error {
			measured[i], failed[i] = m.measure(gctx, id)
			if progress != nil {
				progress()
			}
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

// intro is the head of index.md: what was analyzed, and with what.
func (m *measurers) intro(opt AnalyzeOptions, ts []report.Table, used []analysis.InstrumentVersion) string {
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
		"Annotations are stored beside each table's log: a re-run asks no model again. Early stopping: %d-fold cross-validation, folds drawn from seed %d.\n\n%s",
		opt.Source, strings.Join(parts, ", "), m.readability.Model(), m.acts.Model(), emb, earlystop.DefaultFolds, opt.Seed, instrumentsMarkdown(opt, used))
}

// instrumentsMarkdown lists the versions of the instruments analyze
// measures with (the data or prompts behind each model name), in
// index.md's provenance.
func instrumentsMarkdown(opt AnalyzeOptions, used []analysis.InstrumentVersion) string {
	ins := []analysis.Instrument{opt.Readability, opt.Acts, analysis.Embedding(embed.HashedTFIDF{})}
	if opt.Embedding != nil {
		ins[2] = opt.Embedding
	}
	if opt.Stance.Stance != nil {
		ins = append(ins, opt.Stance.Stance("STATEMENT", ""))
	}
	var parts []string
	for _, in := range ins {
		parts = append(parts, analysis.VersionOf(in).Markdown())
	}
	for _, v := range used {
		if p := v.Markdown(); !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return "Instruments' versions (a hash of each lexicon, dictionary or prompt; a model's name for its embeddings): " + strings.Join(parts, "; ") + "."
}
