package openai_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/stance"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// TestEverySchemaMeetsOpenAIsStrictMode collects every schema the code
// sends, through the real client to the fake server: the agents' answers
// in every phase of every protocol preset, under every vote rule and
// task, with reflective memory; and the instruments' questions (opinion
// presence and signal, dialogue acts, sentiment) asked by a sampler and
// by a negotiation, whose judges send their own schemas. Each schema must
// pass OpenAI's rules for a strict response_format (openaitest.CheckStrict:
// every property required, additionalProperties false, supported keywords
// only, the size limits), and every kind of schema must have been seen.
func TestEverySchemaMeetsOpenAIsStrictMode(t *testing.T) {
	srv := openaitest.NewServer(nil)
	t.Cleanup(srv.Close)
	client := openai.New(openai.Config{Name: "fake", BaseURL: srv.URL(), Model: "fake-model", APIKey: testKey, StructuredOutput: agent.OutputJSONSchema})

	for _, rule := range vote.Rules() {
		runSchemaTable(t, client, roundtable.TextTask{Topic: "what next?"}, roundtable.Config{Rule: rule}, agent.Options{})
	}
	runSchemaTable(t, client, roundtable.TextTask{Topic: "what next?"}, roundtable.Config{Rule: vote.Borda}, agent.Options{Memory: agent.MemoryReflective})
	econ, err := exchange.NewTask(3, exchange.Asymmetric)
	if err != nil {
		t.Fatal(err)
	}
	runSchemaTable(t, client, econ, roundtable.Config{Rule: vote.Majority, Task: roundtable.TaskSpec{Kind: econ.Kind()}}, agent.Options{})
	rec := recommendation(t)
	runSchemaTable(t, client, rec, roundtable.Config{Rule: vote.Plurality, Task: rec.Spec()}, agent.Options{})
	for _, p := range protocol.All() {
		pr, err := protocol.Build(protocol.Settings{Protocol: p.Name(), Question: "Taxes should rise.", Items: []string{"Ann", "Ben"}, Tolerance: 0.5})
		if err != nil {
			t.Fatal(err)
		}
		if pr != nil { // RoundTable's own schedule ran above
			runSchemaTable(t, client, roundtable.TextTask{Topic: "Taxes should rise."}, roundtable.Config{Rule: vote.Plurality, Protocol: pr}, agent.Options{})
		}
	}

	judges := &label.Negotiator{Endpoints: []label.Endpoint{{Name: "a", LLM: client}, {Name: "b", LLM: client}}}
	for _, l := range []label.Labeler{&label.Sampler{LLM: client, Endpoint: "fake", K: 1}, judges} {
		ctx := context.Background()
		_, _ = stance.Classifier{Labeler: l, Statement: "Taxes should rise."}.Classify(ctx, "I think they should.")
		_, _ = acts.Model{Labeler: l}.Tag(ctx, "Why not?", []string{"Taxes should rise."})
		_, _ = sentiment.LLM{Labeler: l}.Score(ctx, "A fine idea.")
	}

	seen := map[string]bool{}
	for _, r := range srv.Requests() {
		if r.Format != "json_schema" {
			t.Errorf("request %d (%s) asked for %q: a refused schema made the client fall back", r.N, r.SchemaName, r.Format)
		}
		if err := openaitest.CheckStrict(r.SchemaName, r.Schema); err != nil {
			t.Errorf("request %d: %v\n%s", r.N, err, r.Schema)
		}
		seen[r.SchemaName] = true
	}
	want := []string{"message", "proposal", "proposal_exchange", "proposal_recommendation", "memory", "mental_model", "survey",
		"opinion_presence", "opinion_signal", "dialogue_acts", "sentiment",
		"opinion_presence_judgement", "opinion_signal_judgement", "dialogue_acts_judgement", "sentiment_judgement"}
	for _, rule := range vote.Rules() {
		want = append(want, "vote_"+string(rule))
	}
	var missing []string
	for _, w := range want {
		if !seen[w] {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		names := make([]string, 0, len(seen))
		for n := range seen {
			names = append(names, n)
		}
		sort.Strings(names)
		t.Errorf("no request sent the schemas %s (seen: %s)", strings.Join(missing, ", "), strings.Join(names, ", "))
	}
	if extra := slices.DeleteFunc(keys(seen), func(n string) bool { return slices.Contains(want, n) }); len(extra) > 0 {
		t.Logf("also seen: %v", extra)
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// runSchemaTable runs a table of three LLM agents for two rounds with cfg.
func runSchemaTable(t *testing.T, llm agent.LLM, task roundtable.Task, cfg roundtable.Config, opt agent.Options) {
	t.Helper()
	ctx := context.Background()
	cfg.Rounds, cfg.Seed, cfg.Participants = 2, 1, seats
	id := fmt.Sprintf("t%d", time.Now().UnixNano())
	tbl, err := roundtable.Create(ctx, roundtabletest.NewMemStore(), roundtabletest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), task, id, cfg)
	if err != nil {
		t.Fatalf("%s: %v", task.Kind(), err)
	}
	a := agent.New(llm, task, opt)
	agents := map[string]roundtable.Agent{}
	for _, p := range seats {
		agents[p.ID] = a
	}
	if _, err := (&roundtable.Runner{Agents: agents}).Run(ctx, tbl); err != nil {
		t.Fatalf("%s: run: %v", task.Kind(), err)
	}
}

// recommendation is a recommendation task on a small synthetic data set.
func recommendation(t *testing.T) *recommend.Task {
	t.Helper()
	dir := t.TempDir()
	if err := recommend.WriteSynthetic(dir, 20, 30, 1); err != nil {
		t.Fatal(err)
	}
	ds, err := recommend.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return recommend.NewTask(ds, recommend.Cases(ds, 1, 1)[0])
}
