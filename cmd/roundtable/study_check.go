package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/store"
)

func (a *App) studyCheckCmd() *cobra.Command {
	var f studyFlags
	cmd := &cobra.Command{
		Use:   "check FILE",
		Short: "Print a study's design, its tables and model calls, and the cost from the endpoints' prices",
		Long: `Reads and checks the study file (an unknown key or an impossible combination
is an error naming its line, condition and key) and prints its design: each
condition's recipe and tables, and the total. When conditions seat language
models, one table of each is played against a stand-in model on 127.0.0.1
(it answers in the agent's formats; no endpoint is asked) to count the calls
and prompt tokens a table makes; times the replications, with each
endpoint's price_per_1k_prompt and price_per_1k_completion, they give the
estimated cost. The stand-in's answers are short, so the completion tokens
are a floor.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return a.checkStudy(cmd, args[0], f) },
	}
	fl := cmd.Flags()
	fl.IntVar(&f.replications, "replications", 0, "tables per condition, instead of the study's")
	f.llm.register(fl)
	return cmd
}

func (a *App) checkStudy(cmd *cobra.Command, path string, f studyFlags) error {
	cfg, s, err := a.loadStudy(path, f.llm)
	if err != nil {
		return err
	}
	reps := s.Replications
	if f.replications > 0 {
		reps = f.replications
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "Study %s (%s): %d conditions × %d replications = %d tables, seed %d\n\n", s.Name, path, len(s.Conditions), reps,
		len(s.Conditions)*reps, s.Seed)
	tw := tabwriter.NewWriter(out, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CONDITION\tTABLES\tRECIPE")
	for _, c := range s.Conditions {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", c.Name, reps, c.Summary())
	}
	_ = tw.Flush()
	if !s.SeatsModels() {
		fmt.Fprintln(out, "\nModel calls: none. Every condition's agents are model-free: the study runs offline.")
		return nil
	}
	eps := f.llm.apply(cfg.LLM)
	if len(eps) == 0 {
		eps = []LLMConfig{{Name: "default", Model: "unconfigured", Timeout: Duration(openai.DefaultTimeout), MaxRetries: openai.DefaultMaxRetries}}
		fmt.Fprintln(out, "\nNo [[llm]] endpoint is configured: the calls are counted on a stand-in endpoint \"default\". study run needs one (an [[llm]] endpoint, or --llm-base-url and --llm-model).")
	}
	per, err := a.rehearse(cmd.Context(), cfg, eps, s)
	if err != nil {
		return err
	}
	printCost(out, s, per, reps, eps)
	return nil
}

// rehearse plays one table of each condition that seats language models
// against a stand-in model served on 127.0.0.1 in the place of each of
// eps, in a scratch database, and returns what each such table asked of
// each endpoint, by condition.
func (a *App) rehearse(ctx context.Context, cfg Config, eps []LLMConfig, s *experiment.Study) (map[string]map[string]openai.Usage, error) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	stand := cfg
	stand.LLM = nil
	for _, ep := range eps {
		ep.BaseURL, ep.APIKeyEnv, ep.RequestsPerMinute, ep.TokensPerMinute, ep.BreakerFailures = srv.URL(), "", 0, 0, 0
		stand.LLM = append(stand.LLM, ep)
	}
	m, err := a.newMinds(stand, llmFlags{}, mindOptions{seats: s.MaxSeats()})
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "roundtable-check-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(filepath.Join(dir, "rehearsal.db"), store.Options{NoSync: true})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	out := map[string]map[string]openai.Usage{}
	for _, c := range s.Conditions {
		if c.Agent != "llm" {
			continue
		}
		one := *s
		one.Conditions = []experiment.Condition{c}
		before := m.eps.Usage()
		run := experiment.StudyRun{Model: m.simAgent, Replications: 1, Logger: slog.New(slog.DiscardHandler)}
		if _, err := one.Run(ctx, db, roundtable.SystemClock{}, run); err != nil {
			return nil, fmt.Errorf("rehearse condition %q: %w", c.Name, err)
		}
		out[c.Name] = usageSince(before, m.eps.Usage())
	}
	return out, nil
}

// usageSince is what each endpoint spent between two readings.
func usageSince(before, after map[string]openai.Usage) map[string]openai.Usage {
	out := map[string]openai.Usage{}
	for name, u := range after {
		b := before[name]
		d := openai.Usage{Calls: u.Calls - b.Calls, PromptTokens: u.PromptTokens - b.PromptTokens, CompletionTokens: u.CompletionTokens - b.CompletionTokens}
		if d.Calls > 0 {
			out[name] = d
		}
	}
	return out
}

// printCost prints the calls and tokens of a table of each condition, and
// per endpoint the totals over reps replications with their cost.
func printCost(w io.Writer, s *experiment.Study, per map[string]map[string]openai.Usage, reps int, eps []LLMConfig) {
	fmt.Fprintln(w, "\nModel calls, counted on one table of each condition played against a stand-in model (its answers are short: completion tokens are a floor):")
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "CONDITION\tCALLS/TABLE\tCALLS\tPROMPT TOKENS\tCOMPLETION TOKENS\t")
	total := map[string]openai.Usage{}
	for _, c := range s.Conditions {
		var calls, prompt, completion int64
		for name, u := range per[c.Name] {
			calls, prompt, completion = calls+u.Calls, prompt+u.PromptTokens, completion+u.CompletionTokens
			t := total[name]
			t.Calls, t.PromptTokens, t.CompletionTokens = t.Calls+u.Calls*int64(reps), t.PromptTokens+u.PromptTokens*int64(reps), t.CompletionTokens+u.CompletionTokens*int64(reps)
			total[name] = t
		}
		r := int64(reps)
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t\n", c.Name, calls, calls*r, prompt*r, completion*r)
	}
	_ = tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ENDPOINT\tMODEL\tCALLS\tPROMPT TOKENS\tCOMPLETION TOKENS\tESTIMATED COST")
	cost, priced := 0.0, false
	names := make([]string, 0, len(total))
	for name := range total {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		u := total[name]
		i := slices.IndexFunc(eps, func(e LLMConfig) bool { return e.Name == name })
		ep := eps[i]
		price := "no price configured (price_per_1k_prompt, price_per_1k_completion)"
		if ep.PricePer1KPrompt > 0 || ep.PricePer1KCompletion > 0 {
			c := float64(u.PromptTokens)/1000*ep.PricePer1KPrompt + float64(u.CompletionTokens)/1000*ep.PricePer1KCompletion
			cost, priced, price = cost+c, true, fmt.Sprintf("%.4f", c)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\n", name, ep.Model, u.Calls, u.PromptTokens, u.CompletionTokens, price)
	}
	_ = tw.Flush()
	if priced {
		fmt.Fprintf(w, "Estimated cost of the study: %.4f (in the prices' currency)\n", cost)
	}
}
