package experiment_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// options are a small run's options: the exchange economy with utility
// traders unless changed.
func options(change func(*experiment.Options)) experiment.Options {
	o := experiment.Options{Task: "exchange", Preset: "asymmetric", Agents: 3, Rounds: 4, Runs: 2, Seed: 7,
		Rules: []vote.Rule{vote.Majority}, Tie: vote.TieDefer, Concurrency: 1,
		Protocol: protocol.Settings{Key: "--protocol", Alpha: 0.5, Tolerance: 1e-5, Stances: "uniform"}}
	if change != nil {
		change(&o)
	}
	return o
}

// New picks the design the options ask for: the task's rule-based agents,
// or a protocol's default model-free agents, one design per grid cell.
func TestNewPicksTheDesigns(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*experiment.Options)
		agent  string
		names  []string
	}{
		{"exchange", nil, "utility", []string{"exchange-utility"}},
		{"dyads", func(o *experiment.Options) { o.Protocol.Protocol, o.Protocol.Question = "dyads", "q" }, "degroot", []string{"dyads-degroot"}},
		{"dyads condition", func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Protocol.Stances, o.Protocol.Memory = "dyads", "q", "mixed", "reflective"
		}, "degroot", []string{"dyads-degroot-st_mixed-mem_reflective"}},
		{"chatroom by topic", func(o *experiment.Options) { o.Protocol.Protocol, o.Topic = "chatroom", "q" }, "persona", []string{"chatroom-persona"}},
		{"panel grid", func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question = "panel", "Hire"
			o.Protocol.Alphas, o.Protocol.Tolerances = []float64{0.3, 0.7}, []float64{1e-3}
		}, "evaluator", []string{"panel-evaluator-a0.3-t0.001", "panel-evaluator-a0.7-t0.001"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, err := experiment.New(options(c.change))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, d := range e.Designs() {
				names = append(names, d.Name)
			}
			if e.Agent() != c.agent || strings.Join(names, " ") != strings.Join(c.names, " ") {
				t.Errorf("agent %q, designs %v; want %q, %v", e.Agent(), names, c.agent, c.names)
			}
		})
	}
}

// A bad option is refused before anything runs, as bad input naming it.
func TestNewRefusesBadOptionsNamingThem(t *testing.T) {
	for want, change := range map[string]func(*experiment.Options){
		"--agents":          func(o *experiment.Options) { o.Agents = 1 },
		"--runs":            func(o *experiment.Options) { o.Runs = 0 },
		"--quorum":          func(o *experiment.Options) { o.Quorum = 9 },
		"--preset":          func(o *experiment.Options) { o.Preset = "lopsided" },
		"--task text needs": func(o *experiment.Options) { o.Task = "text" },
		"--agent baseline":  func(o *experiment.Options) { o.Agent = "baseline" },
		"--protocol":        func(o *experiment.Options) { o.Protocol.Protocol = "fishbowl" },
		"--question":        func(o *experiment.Options) { o.Protocol.Protocol = "dyads" },
		"--rule all": func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Rules = "dyads", "q", vote.Rules()
		},
		"--agent: \"persona\"": func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Agent = "dyads", "q", "persona"
		},
		"--stances": func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Protocol.Stances = "dyads", "q", "echo:sure"
		},
		"--confirmation-bias": func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Protocol.ConfirmationBias = "chatroom", "q", "strong"
		},
		"--roles": func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Protocol.Roles = "panel", "q", []string{"CFO"}
		},
		"--alpha":     func(o *experiment.Options) { o.Protocol.Protocol, o.Protocol.Alphas = "dyads", []float64{0.1, 0.2} },
		"--agent llm": func(o *experiment.Options) { o.Agent = "llm" },
	} {
		_, err := experiment.New(options(change))
		if roundtable.ErrorCode(err) != roundtable.Invalid || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v (code %s), want bad input naming it", want, err, roundtable.ErrorCode(err))
		}
	}
}

// Run runs every design under every rule into the store, keyed by rule
// and grid cell; the report carries the units of every figure, and the
// grid's schedule no cell's parameters.
func TestRunReportsEveryRuleAndCell(t *testing.T) {
	db := openStore(t)
	e, err := experiment.New(options(func(o *experiment.Options) { o.Rules = []vote.Rule{vote.Majority, vote.Plurality} }))
	if err != nil {
		t.Fatal(err)
	}
	done := 0
	rep, err := e.Run(context.Background(), db, roundtable.SystemClock{}, func() { done++ })
	if err != nil {
		t.Fatal(err)
	}
	if done != e.Tables() || done != 4 || len(rep.Rules["majority"].Runs) != 2 || len(rep.Rules["plurality"].Runs) != 2 {
		t.Errorf("%d tables done of %d; results %v", done, e.Tables(), rep.Rules)
	}
	if u := rep.Units["U@3"]; u == "" || rep.Agent != "utility" {
		t.Errorf("units %q, agent %q", u, rep.Agent)
	}
	var out bytes.Buffer
	e.Print(&out, rep)
	if !strings.Contains(out.String(), "RATIONALITY") {
		t.Errorf("printed:\n%s", out.String())
	}

	grid, err := experiment.New(options(func(o *experiment.Options) {
		o.Protocol.Protocol, o.Protocol.Question, o.Protocol.Items, o.Rounds = "panel", "Hire", []string{"Ann", "Ben"}, 3
		o.Protocol.Alphas, o.Protocol.Tolerances = []float64{0.3, 0.7}, []float64{1e-3}
	}))
	if err != nil {
		t.Fatal(err)
	}
	rep, err = grid.Run(context.Background(), db, roundtable.SystemClock{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := rep.Rules["majority/a0.7-t0.001"]; !ok || len(rep.Rules) != 2 || rep.Protocol != "panel" || rep.Params != nil {
		t.Errorf("grid report: protocol %q params %v results %v", rep.Protocol, rep.Params, rep.Rules)
	}
	if experiment.UnitOf(rep.Units, "borda/Ann") == "" || experiment.UnitOf(rep.Units, "nuance") == "" {
		t.Error("the panel's figures have no units")
	}
}

// Analyze writes RoundTable's report over every table and each protocol's
// own from its tables, the questionnaire's among the chatroom's rows.
func TestAnalyzeWritesEachProtocolsReport(t *testing.T) {
	db := openStore(t)
	var ids []string
	for _, change := range []func(*experiment.Options){
		func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Rounds = "dyads", "The earth is round.", 10
		},
		func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Agents = "chatroom", "Cars out.", 4
		},
		func(o *experiment.Options) {
			o.Protocol.Protocol, o.Protocol.Question, o.Rounds = "questionnaire", "Cars out.", 1
		},
	} {
		e, err := experiment.New(options(change))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := e.Run(context.Background(), db, roundtable.SystemClock{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Rules {
			for _, run := range r.Runs {
				ids = append(ids, run.Table)
			}
		}
	}
	out := t.TempDir()
	in, err := experimentInstruments()
	if err != nil {
		t.Fatal(err)
	}
	in.Tables, in.Out, in.Source = ids, out, "test"
	res, err := experiment.Analyze(context.Background(), db, in)
	if err != nil || res.Tables != len(ids) {
		t.Fatalf("analyzed %d of %d tables: %v", res.Tables, len(ids), err)
	}
	for _, f := range []string{"index.md", "dyads_bias_diversity.csv", "dyads_trajectories.svg", "chatroom_changes.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(out, "chatroom_changes.csv"))
	if !strings.Contains(string(b), "Likert questionnaire") || !strings.Contains(string(b), "classifier over every message") {
		t.Errorf("chatroom_changes.csv lacks the questionnaire's or the chatroom's rows:\n%s", b)
	}
}

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}
