package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/store"
)

// studyFlags are the flags of `roundtable study run` and `check`.
type studyFlags struct {
	out          string
	replications int
	concurrency  int
	newTables    bool
	conditions   []string // run only these
	llm          llmFlags
}

func (a *App) studyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "study",
		Short: "Run an experiment by design: a study file's conditions, headless, with results per condition",
		Long: `A study file (TOML, see docs/studies.md and studies/) names conditions, each a
whole table recipe, a grid that crosses values into conditions, replications
per condition and a seed. study check prints the design and what it would
cost; study run plays every condition × replication headless (bots in every
seat, stand-ins in the people's); study analyze writes the results per
condition.`,
	}
	cmd.AddCommand(a.studyRunCmd(), a.studyCheckCmd(), a.studyAnalyzeCmd())
	return cmd
}

func (a *App) studyRunCmd() *cobra.Command {
	var f studyFlags
	cmd := &cobra.Command{
		Use:   "run FILE [--out DIR]",
		Short: "Play every condition × replication of a study headless",
		Long: `Plays the tables of every condition of the study file, Replications each, with
bots in every seat (a person's seat is played by the condition's stand_in),
into DIR/roundtable.db (default runs/NAME). DIR/study.toml keeps the study
file (DIR/study.json where it was: its relative paths are read from there)
and DIR/summary.json each condition's metrics. Running it again resumes
unfinished tables (after a kill) and reuses finished ones, but only tables
made with the same recipe: otherwise it stops naming what differs, or with
--new-tables starts new tables beside them. Language models are the
config's [[llm]] endpoints (or the --llm-* flags).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.runStudy(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.out, "out", "", "output directory (default runs/NAME, NAME the study's)")
	fl.IntVar(&f.replications, "replications", 0, "tables per condition, instead of the study's (a small run)")
	fl.IntVar(&f.concurrency, "concurrency", 0, "tables run at once (default: 16 per CPU with model-free agents, 4 per CPU with language models)")
	fl.BoolVar(&f.newTables, "new-tables", false, "start new tables beside stored ones made with another recipe instead of stopping")
	fl.StringSliceVar(&f.conditions, "condition", nil, "run only these conditions (repeat or separate with commas; default all)")
	f.llm.register(fl)
	return cmd
}

// loadStudy reads the config and the study file, and checks the study's
// endpoints against the config's.
func (a *App) loadStudy(path string, llm llmFlags) (Config, *experiment.Study, error) {
	cfg, err := LoadConfig(a.configPath)
	if err != nil {
		return cfg, nil, err
	}
	s, err := experiment.ReadStudy(path, "")
	if err != nil {
		return cfg, nil, usageError{err}
	}
	names := map[string]bool{}
	for _, ep := range llm.apply(cfg.LLM) {
		names[ep.Name] = true
	}
	for name, where := range s.Endpoints() {
		if !names[name] {
			return cfg, nil, usagef("study %s: %s: no [[llm]] endpoint is named %q in the config", path, where, name)
		}
	}
	return cfg, s, nil
}

func (a *App) runStudy(cmd *cobra.Command, path string, f studyFlags) error {
	cfg, s, err := a.loadStudy(path, f.llm)
	if err != nil {
		return err
	}
	if len(f.conditions) > 0 {
		if err := s.Only(f.conditions); err != nil {
			return usageError{err}
		}
	}
	run := experiment.StudyRun{Replications: f.replications, Concurrency: f.concurrency, NewTables: f.newTables, Logger: a.logger()}
	var m *minds
	if s.SeatsModels() {
		if m, err = a.studyMinds(cfg, f.llm, s); err != nil {
			return err
		}
		run.Model = m.simAgent
	}
	dir := f.out
	if dir == "" {
		dir = filepath.Join("runs", s.Name)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	if err := keepStudy(dir, s); err != nil {
		return err
	}
	db, err := store.Open(filepath.Join(dir, "roundtable.db"), store.Options{LockTimeout: time.Duration(cfg.Store.LockTimeout)})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer db.Close()
	ctx, stop := context.WithCancelCause(cmd.Context())
	defer stop(nil)
	if m != nil {
		m.stopOnBrokenEndpoint(ctx, stop)
	}
	reps := s.Replications
	if f.replications > 0 {
		reps = f.replications
	}
	bar := a.progress(len(s.Conditions) * reps)
	run.Progress = func() { _ = bar.Add(1) }
	rep, err := s.Run(ctx, db, roundtable.SystemClock{}, run)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && cmd.Context().Err() == nil {
			return cause
		}
		if roundtable.ErrorCode(err) == roundtable.Invalid {
			return usageError{err}
		}
		return err
	}
	_ = bar.Finish()
	if err := rep.Write(filepath.Join(dir, "summary.json")); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "Study %s: %d conditions × %d replications, seed %d, in %s\n", s.Name, len(s.Conditions), rep.Replications, s.Seed, dir)
	if err := s.Print(out, rep); err != nil {
		return err
	}
	if m != nil {
		printUsage(out, m)
	}
	fmt.Fprintf(out, "\nAnalyze with: roundtable study analyze %s\n", dir)
	return nil
}

// studyMinds are the language models of a study: the config's endpoints
// (or the --llm-* flags); it is a usage error to configure none.
func (a *App) studyMinds(cfg Config, llm llmFlags, s *experiment.Study) (*minds, error) {
	m, err := a.newMinds(cfg, llm, mindOptions{seats: s.MaxSeats()})
	if err != nil {
		return nil, err
	}
	if m.eps.Len() == 0 {
		return nil, usagef("study %s seats language models (agent = \"llm\"), but none is configured: add an [[llm]] endpoint or pass --llm-base-url and --llm-model", s.Name)
	}
	a.minds = m
	return m, nil
}

func (a *App) studyAnalyzeCmd() *cobra.Command {
	var f analyzeFlags
	var study string
	var perms int
	cmd := &cobra.Command{
		Use:   "analyze DIR [--out DIR/analysis]",
		Short: "Write a study's results per condition",
		Long: `Reads the tables of the study run in DIR (DIR/roundtable.db, the study file
kept in DIR/study.toml, or --db and --study) and writes into --out (default
DIR/analysis): conditions.csv, every metric per condition (mean, standard
error, 95% interval, n); differences.csv, the difference between every pair
of conditions with a permutation-test p-value (--permutations relabellings
drawn from --seed); conditions/NAME/, the papers' tables and figures of each
condition (as analyze writes them); index.md, the design and each
condition's provenance. Tables of a condition whose provenance differs (the
build, a model seat's endpoint, model asked or answered, sampling, memory or
prompt version) are separate groups, NAME-p1, NAME-p2, unless --pool.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.paths(args); err != nil {
				return err
			}
			if study == "" && len(args) == 0 {
				return usagef("--db needs --study FILE")
			}
			runDir := ""
			if len(args) > 0 {
				runDir = args[0]
			}
			return a.runStudyAnalyze(cmd, f, runDir, study, perms)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "database to analyze (instead of DIR/roundtable.db)")
	fl.StringVar(&f.out, "out", "", "output directory (default DIR/analysis; required with --db)")
	fl.StringVar(&study, "study", "", "the study file (default DIR/study.toml)")
	fl.IntVar(&perms, "permutations", experiment.DefaultPermutations, "relabellings of each difference's permutation test")
	f.registerInstruments(fl)
	return cmd
}

// studySource is DIR/study.json: where the study file a run keeps in
// DIR/study.toml came from, whose directory its relative paths are read
// from.
type studySource struct {
	File string `json:"file"`
	Dir  string `json:"dir"`
}

// keepStudy keeps the study file a run plays in dir/study.toml, and where
// it came from in dir/study.json.
func keepStudy(dir string, s *experiment.Study) error {
	if err := os.WriteFile(filepath.Join(dir, "study.toml"), s.Text, 0o644); err != nil {
		return fmt.Errorf("keep the study file: %w", err)
	}
	var src studySource
	var err error
	if src.File, err = filepath.Abs(s.Path); err != nil {
		return fmt.Errorf("keep the study file: %w", err)
	}
	if src.Dir, err = filepath.Abs(s.Dir); err != nil {
		return fmt.Errorf("keep the study file: %w", err)
	}
	b, err := json.MarshalIndent(src, "", "  ")
	if err != nil {
		return fmt.Errorf("keep the study file: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "study.json"), append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("keep the study file: %w", err)
	}
	return nil
}

// keptStudy reads the study file a run kept in dir, its relative paths
// from where it came.
func keptStudy(dir string) (*experiment.Study, error) {
	var src studySource
	b, err := os.ReadFile(filepath.Join(dir, "study.json"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("read where the study came from: %w", err)
	}
	if err == nil {
		if err := json.Unmarshal(b, &src); err != nil {
			return nil, fmt.Errorf("read %s: %w", filepath.Join(dir, "study.json"), err)
		}
	}
	return experiment.ReadStudy(filepath.Join(dir, "study.toml"), src.Dir)
}

func (a *App) runStudyAnalyze(cmd *cobra.Command, f analyzeFlags, runDir, studyPath string, perms int) error {
	if f.concurrency < 1 {
		return usagef("--concurrency: must be at least 1, not %d", f.concurrency)
	}
	cfg, err := LoadConfig(a.configPath)
	if err != nil {
		return err
	}
	var s *experiment.Study
	if studyPath != "" {
		s, err = experiment.ReadStudy(studyPath, "")
	} else {
		s, err = keptStudy(runDir)
	}
	if err != nil {
		return usageError{err}
	}
	opt, err := a.analyzeOptions(cmd.Context(), cfg, f)
	if err != nil {
		return err
	}
	db, err := a.openAnalyzed(cmd.Context(), cfg, f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	out := cmd.OutOrStdout()
	ids, damaged, err := roundtable.Readable(cmd.Context(), db, f.tablesExplicit)
	if err != nil {
		return err
	}
	if damaged != nil {
		fmt.Fprintf(out, "left out: %v\n", damaged)
	}
	bar := a.progress(len(ids))
	opt.Progress = func() { _ = bar.Add(1) }
	res, err := experiment.AnalyzeStudy(cmd.Context(), db, s, ids, experiment.StudyAnalyzeOptions{AnalyzeOptions: opt, Permutations: perms})
	_ = bar.Finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d tables of study %s in %d condition groups; %d files in %s (see %s)\n", res.Tables, s.Name, len(res.Groups),
		len(res.Files), f.out, filepath.Join(f.out, "index.md"))
	for _, sk := range res.Skipped {
		fmt.Fprintln(out, "not produced: "+sk)
	}
	return errors.Join(res.Missing, damaged)
}
