package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// simFlags are the flags of `roundtable sim`; unset ones come from [sim].
type simFlags struct {
	task, topic, preset, rule, tie, earlyStop, out, agent, data string
	agents, rounds, runs, concurrency, quorum                   int
	seed                                                        int64
	phaseTimeout                                                time.Duration
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
same command again resumes unfinished tables and reuses finished ones.

--protocol panel|chatroom|dyads|questionnaire runs the other papers' schedules
on --question (see the README's Protocols section), with model-free agents by
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
	if !set("agent") && f.proto.Protocol != roundtable.ProtocolRoundTable && f.proto.Protocol != "" {
		f.agent = defaultOfflineAgent(f.proto.Protocol)
	}
	if f.agent == "deffuant" {
		f.proto.TwoWay = true // the symmetric update needs both to speak
	}
	if !set("agents") {
		f.agents = c.Agents
	}
	if !set("rounds") {
		f.rounds = c.Rounds
	}
	if !set("runs") {
		f.runs = c.Runs
	}
	if !set("seed") {
		f.seed = c.Seed
	}
	if !set("concurrency") {
		f.concurrency = c.Concurrency
	}
	if f.concurrency == 0 {
		// Utility agents cost little CPU: what bounds them is the fsync of
		// every commit, which more tables in flight share (bbolt batches
		// concurrent writers). Model agents wait on their endpoint, whose
		// own limits bound the requests in flight.
		perCPU := 16
		if f.agent == "llm" {
			perCPU = 4
		}
		f.concurrency = perCPU * runtime.GOMAXPROCS(0)
	}
	if !set("phase-timeout") {
		f.phaseTimeout = time.Duration(c.PhaseTimeout)
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

func (f simFlags) tableConfig(rule vote.Rule) (roundtable.Config, error) {
	tie, err := vote.ParseTiePolicy(f.tie)
	if err != nil {
		return roundtable.Config{}, usagef("--tie: %v", err)
	}
	if f.quorum < 0 || f.quorum > f.agents {
		return roundtable.Config{}, usagef("--quorum: %d is out of range 0..%d (the agents of a table)", f.quorum, f.agents)
	}
	c := roundtable.Config{Rule: rule, Tie: tie, Rounds: f.rounds, EarlyStop: roundtable.EarlyStop(f.earlyStop), Mode: roundtable.Sealed, Quorum: f.quorum}
	c = c.WithDefaults()
	if err := c.Validate(); err != nil {
		return c, usagef("%v", err)
	}
	return c, nil
}

// simReport is what summary.json holds.
type simReport struct {
	Task    string                `json:"task"`
	Agent   string                `json:"agent"`
	Agents  int                   `json:"agents"`
	Rounds  int                   `json:"rounds"`
	Runs    int                   `json:"runs"`
	Seed    int64                 `json:"seed"`
	Started time.Time             `json:"started"`
	WallNS  time.Duration         `json:"wall_ns"`
	Units   map[string]string     `json:"units"` // the unit of every metric below
	Rules   map[string]sim.Result `json:"rules"`
	// Protocol is the schedule's name, when not RoundTable's, and Params
	// its recorded parameters (a dyads run's condition).
	Protocol string            `json:"protocol,omitempty"`
	Params   map[string]string `json:"params,omitempty"`
}

func (a *App) runSim(cmd *cobra.Command, cfg Config, f simFlags) error {
	rules, err := f.rules()
	if err != nil {
		return err
	}
	exp, err := a.experiment(cfg, f)
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
	if a.minds != nil {
		a.minds.stopOnBrokenEndpoint(ctx, stop)
	}
	bctx, stopBackups := context.WithCancel(cmd.Context())
	defer stopBackups()
	if file, ok := db.(*store.DB); ok {
		serveBackups(bctx, file, a.logger())
	}
	rep := simReport{Task: f.task, Agent: f.agent, Agents: f.agents, Rounds: f.rounds, Runs: f.runs, Seed: f.seed,
		Started: time.Now().UTC(), Units: withUnits(metricUnits, exp.units), Rules: map[string]sim.Result{}}
	if exp.protocol != nil {
		rep.Protocol, rep.Params = exp.protocol.Name, exp.protocol.Params
	}
	bar := a.progress(len(rules) * f.runs * len(exp.variants()))
	for _, rule := range rules {
		tc, err := f.tableConfig(rule)
		if err != nil {
			return err
		}
		for _, v := range exp.variants() {
			spec := v.spec(rule, tc, f)
			spec.Progress = func(int, int) { _ = bar.Add(1) }
			spec.Logger = a.logger()
			res, err := sim.Execute(ctx, db, roundtable.SystemClock{}, spec)
			if err != nil {
				if cause := context.Cause(ctx); cause != nil && cmd.Context().Err() == nil {
					return cause // an endpoint cannot serve the run: its one message
				}
				return err
			}
			rep.Rules[resultKey(string(rule), v)] = res
		}
	}
	_ = bar.Finish()
	rep.WallNS = time.Since(rep.Started)
	if err := writeJSON(filepath.Join(f.out, "summary.json"), rep); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	exp.print(out, rules, rep)
	if a.minds != nil {
		printUsage(out, a.minds)
	}
	printTiming(out, rep, storeName(db), filepath.Join(f.out, "summary.json"))
	return nil
}

func (a *App) progress(total int) *progressbar.ProgressBar {
	if !isTerminal(a.Stderr) {
		return progressbar.DefaultSilent(int64(total))
	}
	return progressbar.NewOptions(total, progressbar.OptionSetWriter(a.Stderr), progressbar.OptionSetDescription("tables"),
		progressbar.OptionShowCount(), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
}

func printTiming(w io.Writer, rep simReport, events, summary string) {
	tables := 0
	phases := map[string]time.Duration{}
	for _, r := range rep.Rules {
		tables += len(r.Runs)
		for p, d := range r.Summary.Phases {
			phases[p] += d
		}
	}
	secs := rep.WallNS.Seconds()
	var parts []string
	for _, p := range []string{"message", "proposal", "vote", "survey", "private"} {
		if d, ok := phases[p]; ok || p == "message" || p == "proposal" || p == "vote" {
			parts = append(parts, fmt.Sprintf("%s %s", p, d.Round(time.Millisecond)))
		}
	}
	fmt.Fprintf(w, "\n%d tables in %.2fs (%.1f tables/s); phase wall time summed over tables: %s\n",
		tables, secs, float64(tables)/max(secs, 1e-9), strings.Join(parts, ", "))
	fmt.Fprintf(w, "events: %s   summary: %s\n", events, summary)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// printUsage reports the tokens and estimated cost per endpoint.
func printUsage(w io.Writer, m *minds) {
	for name, u := range m.usage() {
		fmt.Fprintf(w, "llm %s: %d calls (%d failed, %d retries), %d prompt + %d completion tokens (%d cached)",
			name, u.Calls, u.Failures, u.Retries, u.PromptTokens, u.CompletionTokens, u.CachedTokens)
		if u.Cost > 0 {
			fmt.Fprintf(w, ", estimated cost %.4f", u.Cost)
		}
		fmt.Fprintln(w)
	}
}
