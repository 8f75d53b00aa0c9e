package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// simFlags are the flags of `roundtable sim`; unset ones come from [sim].
type simFlags struct {
	task, topic, preset, rule, tie, earlyStop, out, agent, data string
	agents, rounds, runs, concurrency, quorum                   int
	seed                                                        int64
	phaseTimeout                                                time.Duration
	newTables                                                   bool
	llm                                                         llmFlags
	proto                                                       ProtocolSettings
	panel                                                       panelFlags
}

func (a *App) simCmd() *cobra.Command {
	var f simFlags
	cmd := &cobra.Command{
		Use:   "sim [--task exchange|text|recommendation] [--rule RULE|all] [--agents K] [--rounds R] [--runs N] [--seed S] [--out DIR]",
		Short: "Run many headless tables and report the papers' metrics",
		Long: `Runs N tables concurrently with no chat platform: every participant is an
agent. With --agent utility (the default) the exchange economy runs with
rule-based utility agents and needs no model, key or network. With
--agent llm the agents think with the configured [[llm]] endpoint (or the
--llm-* flags). Each table's events go to DIR/roundtable.db; DIR/summary.json
holds the metrics per round (mean and standard error over runs). Running the
same command again resumes unfinished tables and reuses finished ones, but
only tables made with the same recipe (every setting of the table, and the
endpoint, model, temperature, memory and prompt version of each model
seat): otherwise it stops, naming what differs, or with --new-tables starts
new tables beside them. Each table's log and summary.json record the build
and, per model seat, the model asked for and the model that answered.

--protocol panel|chatroom|dyads|questionnaire runs the other papers' schedules
on --question (see docs/papers.md, "The other papers' protocols"), with model-free agents by
default: --agent evaluator (panel), persona (chatroom, questionnaire),
degroot or deffuant (dyads), or --agent llm.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := LoadConfig(a.configPath)
			if err != nil {
				return err
			}
			f.fill(cmd, cfg.Sim)
			return a.runSim(cmd, cfg, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.task, "task", "", "task: exchange, text or recommendation (default from [sim], exchange)")
	fl.StringVar(&f.topic, "topic", "", "question of the text task")
	fl.StringVar(&f.preset, "preset", "", "exchange preferences: asymmetric, symmetric, uniform or asymmetric-printed")
	fl.StringVar(&f.rule, "rule", "", "social-choice rule, or all: "+ruleNames())
	fl.StringVar(&f.tie, "tie", "", "tie policy: defer, random or incumbent")
	fl.StringVar(&f.earlyStop, "early-stop", "", "none, first-agreement or consecutive-agreements")
	fl.StringVar(&f.out, "out", "", "output directory (default runs)")
	fl.StringVar(&f.agent, "agent", "utility", "agent kind: utility (exchange, rule-based, no model), baseline (recommendation: always-4, user-mean and collaborative-filtering agents, no model), llm, or with --protocol: degroot, deffuant, persona or evaluator")
	fl.StringVar(&f.data, "data", "", "MovieLens-100k directory for the recommendation task")
	fl.IntVar(&f.agents, "agents", 0, "agents per table, K (default 3)")
	fl.IntVar(&f.rounds, "rounds", 0, "rounds per table, R (default 10)")
	fl.IntVar(&f.runs, "runs", 0, "tables per rule, N (default 10)")
	fl.IntVar(&f.quorum, "quorum", 0, "ballots (abstentions included) a vote needs to decide; 0: none")
	fl.IntVar(&f.concurrency, "concurrency", 0, "tables run at once (default: 16 per CPU with utility agents, 4 per CPU with language models)")
	fl.Int64Var(&f.seed, "seed", 0, "seed; the same seed and flags give the same tables (default 1)")
	fl.DurationVar(&f.phaseTimeout, "phase-timeout", 0, "longest wait for the agents of one phase (default 2m)")
	fl.BoolVar(&f.newTables, "new-tables", false, "start new tables beside stored ones made with another recipe (model, temperature, memory, topic, ...) instead of stopping")
	f.llm.register(fl)
	f.proto.register(fl)
	f.panel.register(fl)
	return cmd
}

// fill takes unset flags from the [sim] section.
func (f *simFlags) fill(cmd *cobra.Command, c SimConfig) {
	set := cmd.Flags().Changed
	pick(set, "task", &f.task, c.Task)
	pick(set, "topic", &f.topic, c.Topic)
	pick(set, "preset", &f.preset, c.Preset)
	pick(set, "rule", &f.rule, c.Rule)
	pick(set, "tie", &f.tie, c.Tie)
	pick(set, "early-stop", &f.earlyStop, c.EarlyStop)
	pick(set, "out", &f.out, c.Out)
	pick(set, "data", &f.data, c.Data)
	f.proto.fill(set, c.ProtocolSettings)
	if !set("agent") {
		f.agent = "" // the task's or the protocol's own
	}
	pick(set, "agents", &f.agents, c.Agents)
	pick(set, "rounds", &f.rounds, c.Rounds)
	pick(set, "runs", &f.runs, c.Runs)
	pick(set, "seed", &f.seed, c.Seed)
	pick(set, "concurrency", &f.concurrency, c.Concurrency)
	pick(set, "phase-timeout", &f.phaseTimeout, time.Duration(c.PhaseTimeout))
	// A protocol with a rule of its own (a mediation's Schulze and drawn
	// ties) keeps it unless the flags or the [sim] section name another.
	if rule, tie, ok := protocol.RuledOf(f.proto.Protocol); ok {
		def := DefaultConfig().Sim
		if !set("rule") && c.Rule == def.Rule {
			f.rule = string(rule)
		}
		if !set("tie") && c.Tie == def.Tie {
			f.tie = string(tie)
		}
	}
}

func (f simFlags) rules() ([]vote.Rule, error) {
	if f.rule == "all" {
		return vote.Rules(), nil
	}
	r, err := vote.ParseRule(f.rule)
	if err != nil {
		return nil, usagef("--rule: %v", err)
	}
	return []vote.Rule{r}, nil
}

// options turn the flags into the experiment's options; m, when set, makes
// its language-model agents.
func (f simFlags) options(cfg Config, m *minds, log *slog.Logger) (experiment.Options, error) {
	rules, err := f.rules()
	if err != nil {
		return experiment.Options{}, err
	}
	tie, err := vote.ParseTiePolicy(f.tie)
	if err != nil {
		return experiment.Options{}, usagef("--tie: %v", err)
	}
	ps := f.proto.settings("--protocol")
	if f.panel.itemDir != "" {
		if ps, err = protocol.ReadDocs(ps, f.panel.itemDir); err != nil {
			return experiment.Options{}, usageError{err}
		}
	}
	ps.Roles = f.panel.roles
	o := experiment.Options{Task: f.task, Topic: f.topic, Preset: f.preset, Data: f.data, Agent: f.agent,
		Agents: f.agents, Rounds: f.rounds, Runs: f.runs, Seed: f.seed, Rules: rules, Tie: tie,
		EarlyStop: roundtable.EarlyStop(f.earlyStop), Quorum: f.quorum, Concurrency: f.concurrency, PhaseTimeout: f.phaseTimeout,
		Protocol: ps, Logger: log, NewTables: f.newTables}
	for _, p := range cfg.Agents {
		o.Personas = append(o.Personas, presetSeat(p))
	}
	if m != nil {
		o.Model = m.simAgent
	}
	return o, nil
}

func (a *App) runSim(cmd *cobra.Command, cfg Config, f simFlags) error {
	var m *minds
	if f.agent == "llm" {
		var err error
		if m, err = a.simMinds(cfg, f); err != nil {
			return err
		}
	}
	opt, err := f.options(cfg, m, a.logger())
	if err != nil {
		return err
	}
	exp, err := experiment.New(opt)
	if roundtable.ErrorCode(err) == roundtable.Invalid {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.out, 0o755); err != nil {
		return fmt.Errorf("create output directory: %w", err)
	}
	dbPath := filepath.Join(f.out, "roundtable.db")
	if cfg.Store.Backend == "etcd" {
		dbPath = etcdName
	}
	db, err := a.openStore(cmd.Context(), cfg, dbPath, false)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, stop := context.WithCancelCause(cmd.Context())
	defer stop(nil)
	if m != nil {
		m.stopOnBrokenEndpoint(ctx, stop)
	}
	bctx, stopBackups := context.WithCancel(cmd.Context())
	defer stopBackups()
	if file, ok := db.(*store.DB); ok {
		file.ServeBackups(bctx, a.logger())
	}
	bar := a.progress(exp.Tables())
	rep, err := exp.Run(ctx, db, roundtable.SystemClock{}, func() { _ = bar.Add(1) })
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && cmd.Context().Err() == nil {
			return cause // an endpoint cannot serve the run: its one message
		}
		return err
	}
	_ = bar.Finish()
	if err := rep.Write(filepath.Join(f.out, "summary.json")); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	exp.Print(out, rep)
	if m != nil {
		printUsage(out, m)
	}
	experiment.PrintTiming(out, rep, storeName(db), filepath.Join(f.out, "summary.json"))
	return nil
}

// simMinds are the language models of a --agent llm simulation; it is a
// usage error to configure none.
func (a *App) simMinds(cfg Config, f simFlags) (*minds, error) {
	m, err := a.newMinds(cfg, f.llm, mindOptions{seats: f.agents})
	if err != nil {
		return nil, err
	}
	if m.eps.Len() == 0 {
		return nil, usagef("--agent llm: no language model is configured: add an [[llm]] endpoint or pass --llm-base-url and --llm-model")
	}
	a.minds = m
	return m, nil
}

func (a *App) progress(total int) *progressbar.ProgressBar {
	if !isTerminal(a.Stderr) {
		return progressbar.DefaultSilent(int64(total))
	}
	return progressbar.NewOptions(total, progressbar.OptionSetWriter(a.Stderr), progressbar.OptionSetDescription("tables"),
		progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
}

// printUsage reports the tokens and estimated cost per endpoint.
func printUsage(w io.Writer, m *minds) {
	for name, u := range m.eps.Usage() {
		fmt.Fprintf(w, "llm %s: %d calls (%d failed, %d retries), %d prompt + %d completion tokens (%d cached)",
			name, u.Calls, u.Failures, u.Retries, u.PromptTokens, u.CompletionTokens, u.CachedTokens)
		if u.Cost > 0 {
			fmt.Fprintf(w, ", estimated cost %.4f", u.Cost)
		}
		fmt.Fprintln(w)
	}
}
