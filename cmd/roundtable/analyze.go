package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/store"
)

// analyzeFlags are the flags of `roundtable analyze`.
type analyzeFlags struct {
	db, out        string
	acts, embed    string
	stance         string // chatroom private messages: lexicon or llm
	transitions    string // dialogue-act transitions: speaker-pairs or occurrences
	syllables      string // readability: cmudict or vowel-groups
	seed           int64
	concurrency    int
	pool           bool          // analyze tables of different provenance together
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
information difference per round), Table 9 and Figures 4 to 6 (dialogue
acts and their transition graph, over all rules and per rule; --transitions
picks how transitions are counted). Each is a CSV file, figures also PNG and SVG;
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
the default is a hashed TF-IDF vector, computed again each time (no model).

index.md lists what made the tables (their provenance: the build, and per
model seat the endpoint, the model asked for and the models that answered,
sampling, memory and prompt version). Tables of different provenance are
not pooled: each group is analyzed apart, in --out/provenance-N with its own
index.md, unless --pool analyzes them together (index.md then labels each
group).`,
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
	fl.StringSliceVar(&f.tablesExplicit, "table", nil, "analyze only these table IDs (default all)")
	fl.BoolVar(&f.pool, "pool", false, "analyze tables of different provenance (build, model asked or answered, sampling, memory, prompt version) together, each group labelled in index.md; by default each provenance is analyzed apart, in its own directory")
	f.registerInstruments(fl)
	return cmd
}

// registerInstruments registers the flags of the instruments and of the
// seed of the cross-validation folds (analyze's and study analyze's).
func (f *analyzeFlags) registerInstruments(fl *pflag.FlagSet) {
	fl.StringVar(&f.acts, "acts", "cue-phrases", "dialogue acts: cue-phrases (offline) or llm")
	fl.StringVar(&f.stance, "stance", "lexicon", "stance of the chatroom's private messages: lexicon (offline keyword classifier) or llm (presence and signal classifiers, --samples answers each, tie re-asked)")
	fl.StringVar(&f.syllables, "syllables", "cmudict", "syllables of the Flesch-Kincaid grade: cmudict (the CMU Pronouncing Dictionary, a vowel-group heuristic for words it lacks) or vowel-groups (the heuristic alone)")
	fl.StringVar(&f.transitions, "transitions", acts.SpeakerPairs.String(), "dialogue-act transitions (Figures 4-6, the dialogue-act stop): speaker-pairs (the paper's Eq. 1) or occurrences (each act once, followed by B when anyone else says B)")
	fl.StringVar(&f.embed, "embedding", "hashed-tfidf", "embeddings for the information difference: hashed-tfidf (offline) or llm")
	fl.Int64Var(&f.seed, "seed", 1, "seed of the cross-validation folds")
	fl.IntVar(&f.concurrency, "concurrency", 8, "tables measured at once (a model-backed instrument waits on its endpoint)")
	fl.IntVar(&f.annotate.samples, "samples", 10, "model answers per dialogue-act label; the majority wins")
	fl.StringVar(&f.annotate.endpoint, "endpoint", "", "the [[llm]] endpoint to ask (default the first)")
	fl.StringVar(&f.annotate.negotiate, "negotiate", "", "label dialogue acts by negotiation between two or three [[llm]] endpoints")
	fl.IntVar(&f.annotate.maxTurns, "max-turns", 3, "negotiation: turns per session before roles flip")
	fl.StringVar(&f.annotate.embeddingModel, "embedding-model", "text-embedding-3-small", "--embedding llm: the model of /v1/embeddings")
	f.annotate.llm.register(fl)
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

// analyzeOptions builds the instruments the flags ask for.
func (a *App) analyzeOptions(ctx context.Context, cfg Config, f analyzeFlags) (experiment.AnalyzeOptions, error) {
	opt := experiment.AnalyzeOptions{Out: f.out, Source: f.db, Seed: f.seed, Concurrency: f.concurrency, Pool: f.pool}
	af := f.annotate
	var err error
	if opt.Transitions, err = acts.ParseCounting(f.transitions); err != nil {
		return opt, usagef("--transitions: %v", err)
	}
	af.instrument, af.method = "readability", f.syllables
	if opt.Readability, err = a.buildInstrument(ctx, cfg, af); err != nil {
		return opt, fmt.Errorf("--syllables: %w", err)
	}
	af.instrument, af.method = "dialogue-acts", f.acts
	if opt.Acts, err = a.buildInstrument(ctx, cfg, af); err != nil {
		return opt, fmt.Errorf("--acts: %w", err)
	}
	if f.embed != "hashed-tfidf" {
		af.instrument, af.method = "embedding", f.embed
		if opt.Embedding, err = a.buildInstrument(ctx, cfg, af); err != nil {
			return opt, fmt.Errorf("--embedding: %w", err)
		}
	}
	opt.Stance, err = a.stanceClassifier(ctx, cfg, f)
	return opt, err
}

// stanceClassifier is the classifier of the chatroom's private messages
// that --stance asks for.
func (a *App) stanceClassifier(ctx context.Context, cfg Config, f analyzeFlags) (protocol.Instruments, error) {
	switch f.stance {
	case "", "lexicon":
		in := analysis.Stance(stance.Lexicon{})
		return protocol.Instruments{Stance: func(string, string) analysis.Instrument { return in }, StanceModel: stance.LexiconModel}, nil
	case "llm":
		af := f.annotate
		af.instrument = "stance"
		lb, err := a.labeler(ctx, cfg, af)
		if err != nil {
			return protocol.Instruments{}, fmt.Errorf("--stance: %w", err)
		}
		return protocol.Instruments{StanceModel: lb.Model(), Stance: func(st, comp string) analysis.Instrument {
			return analysis.Stance(stance.Classifier{Labeler: lb, Statement: st, Complement: comp})
		}}, nil
	}
	return protocol.Instruments{}, usagef("--stance: %q is not lexicon or llm", f.stance)
}

// openAnalyzed opens the database analyze reads (and writes its
// annotations into).
func (a *App) openAnalyzed(ctx context.Context, cfg Config, path string) (store.Backend, error) {
	db, err := a.openStore(ctx, cfg, path, false)
	if errors.Is(err, store.ErrLocked) {
		return nil, fmt.Errorf("%w; analyze stores annotations beside the logs, so stop the server or run using it or analyze a copy (roundtable backup COPY.db, then analyze --db COPY.db --out DIR)", err)
	}
	return db, err
}

func (a *App) runAnalyze(ctx context.Context, cfg Config, f analyzeFlags, out io.Writer) error {
	if f.concurrency < 1 {
		return usagef("--concurrency: must be at least 1, not %d", f.concurrency)
	}
	opt, err := a.analyzeOptions(ctx, cfg, f)
	if err != nil {
		return err
	}
	db, err := a.openAnalyzed(ctx, cfg, f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	var damaged error // tables left out: the rest is analyzed
	opt.Tables, damaged, err = roundtable.Readable(ctx, db, f.tablesExplicit)
	if err != nil {
		return err
	}
	if damaged != nil {
		fmt.Fprintf(out, "left out: %v\n", damaged)
	}
	bar := a.progress(len(opt.Tables))
	opt.Progress = func() { _ = bar.Add(1) }
	res, err := experiment.Analyze(ctx, db, opt)
	_ = bar.Finish()
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d tables analyzed; %d files in %s (see %s)\n", res.Tables, len(res.Files), f.out, filepath.Join(f.out, "index.md"))
	for _, s := range res.Skipped {
		fmt.Fprintln(out, "not produced: "+s)
	}
	if res.Tables == 0 {
		return errors.Join(fmt.Errorf("no table of %s could be analyzed", f.db), damaged)
	}
	return errors.Join(res.Missing, damaged)
}
