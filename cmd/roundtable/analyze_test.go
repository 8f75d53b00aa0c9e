package main

import (
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report/reporttest"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// exchangeFiles are the files an exchange run gives analyze.
var exchangeFiles = []string{
	"index.md", "table1_exchange.csv",
	"figure2a_utility_per_round.csv", "figure2a_utility_per_round.png", "figure2a_utility_per_round.svg",
	"figure2b_not_agreed.csv", "figure2b_not_agreed.png", "figure2b_not_agreed.svg",
	"table10_early_stopping_exchange.csv", "table11_early_stopping_stats_exchange.csv",
	"table8_linguistic.csv", "table8_words.csv", "table8_words.png", "table8_words.svg",
	"table8_fk_grade.csv", "table8_fk_grade.png", "table8_fk_grade.svg",
	"table8_info_diff.csv", "table8_info_diff.png", "table8_info_diff.svg",
	"table9_dialogue_acts.csv", "table9_dialogue_acts.png", "table9_dialogue_acts.svg",
	"figure4_transitions_exchange.csv", "figure4_transitions_exchange.dot", "figure4_transitions_exchange.png", "figure4_transitions_exchange.svg",
}

// checkAnalysis wants exactly the files want (default the exchange
// files) in dir, each readable.
func checkAnalysis(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names, paths []string
	for _, e := range entries {
		names = append(names, e.Name())
		paths = append(paths, filepath.Join(dir, e.Name()))
	}
	if want == nil {
		want = slices.Clone(exchangeFiles)
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("files %v\nwant %v", names, want)
	}
	reporttest.CheckFiles(t, paths)
}

// actsByText labels a message from its length, so that messages differ.
func actsByText(r *openaitest.Request) openaitest.Reply {
	all := acts.All()
	n := len(r.LastUser())
	return openaitest.JSON(map[string]any{"reasoning": "r", "labels": []string{all[n%5], all[5+n%5]}})
}

func TestAnalyzeLLMExchangeRunWritesEveryFileAndAsksNoModelTwice(t *testing.T) {
	var labelling atomic.Bool
	srv := openaitest.NewServer(func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		if labelling.Load() {
			return actsByText(r)
		}
		return openaitest.Responder{}.Handle(ctx, r)
	})
	defer srv.Close()
	run1 := t.TempDir()
	code, out, errOut := run(t, "", "sim", "--task", "exchange", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--rule", "rated", "--rounds", "3", "--runs", "4", "--out", run1)
	if code != 0 {
		t.Fatalf("sim: exit %d %s\n%s", code, errOut, out)
	}
	labelling.Store(true)
	asked := srv.Count(nil)
	args := []string{"analyze", run1, "--acts", "llm", "--embedding", "llm", "--samples", "1", "--llm-base-url", srv.URL(), "--llm-model", "m"}
	code, out, errOut = run(t, "", args...)
	if code != 0 || !strings.Contains(out, "4 tables analyzed") {
		t.Fatalf("analyze: exit %d %s\n%s", code, errOut, out)
	}
	checkAnalysis(t, filepath.Join(run1, "analysis"))
	labels, embeds := srv.Count(nil)-asked, len(srv.EmbedRequests())
	if labels < 4*3*3 || embeds == 0 {
		t.Fatalf("%d label requests and %d embedding requests: want one per message", labels, embeds)
	}
	idx, _ := os.ReadFile(filepath.Join(run1, "analysis", "index.md"))
	if !strings.Contains(string(idx), "dialogue acts by `default") {
		t.Errorf("index.md does not name the labelling model:\n%s", idx)
	}
	before, _ := os.ReadFile(filepath.Join(run1, "analysis", "table9_dialogue_acts.csv"))
	code, _, errOut = run(t, "", args...)
	if code != 0 || srv.Count(nil)-asked != labels || len(srv.EmbedRequests()) != embeds {
		t.Fatalf("second analyze: exit %d %s; %d more label and %d more embedding requests, want none",
			code, errOut, srv.Count(nil)-asked-labels, len(srv.EmbedRequests())-embeds)
	}
	after, _ := os.ReadFile(filepath.Join(run1, "analysis", "table9_dialogue_acts.csv"))
	if string(before) != string(after) || !strings.Contains(string(after), "Propose") {
		t.Errorf("table 9 changed on the re-run, or lacks the labels:\n%s", after)
	}
}

func TestAnalyzeOfflineUtilityRun(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--rule", "all", "--runs", "3", "--rounds", "4", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d %s", code, errOut)
	}
	addUnstartedTable(t, filepath.Join(dir, "roundtable.db"))
	out := t.TempDir()
	code, stdout, errOut := run(t, "", "analyze", "--db", filepath.Join(dir, "roundtable.db"), "--out", out, "--seed", "7")
	if code != 0 {
		t.Fatalf("analyze: exit %d %s\n%s", code, errOut, stdout)
	}
	checkAnalysis(t, out, append(slices.Clone(exchangeFiles), // every rule: Figure 5, one transition graph per rule
		"figure5_transitions_by_rule_exchange.csv", "figure5_transitions_by_rule_exchange.dot", "figure5_transitions_by_rule_exchange.png", "figure5_transitions_by_rule_exchange.svg")...)
	idx, _ := os.ReadFile(filepath.Join(out, "index.md"))
	for _, want := range []string{"cue-phrases", "hashed-tfidf", "seed 7", "Figure 3", "1 tables have not ended"} {
		if !strings.Contains(string(idx), want) {
			t.Errorf("index.md lacks %q", want)
		}
	}
	t1, _ := os.ReadFile(filepath.Join(out, "table1_exchange.csv"))
	if rows := strings.Count(string(t1), "\n"); rows != 1+len(vote.Rules()) {
		t.Errorf("table 1 has %d lines, want a header and %d rules:\n%s", rows, len(vote.Rules()), t1)
	}
}

func TestAnalyzeUsageErrors(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"analyze"}, "name a run directory"},
		{[]string{"analyze", "--db", "x.db"}, "--db needs --out DIR"},
		{[]string{"analyze", filepath.Join(t.TempDir(), "none")}, "roundtable.db"},
		{[]string{"analyze", "--db", "a.db", "dir"}, "not both"},
		{[]string{"analyze", "--db", empty, "--out", t.TempDir(), "--acts", "magic"}, "--acts"},
		{[]string{"analyze", "--db", empty, "--out", t.TempDir(), "--syllables", "guess"}, "--syllables"},
		{[]string{"analyze", "--db", empty, "--out", t.TempDir(), "--transitions", "pairs"}, "--transitions"},
	} {
		code, _, errOut := run(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d %q, want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// A labelling model that refuses leaves the acts out, says so and exits
// 1; the next run with the model back asks only for what is missing.
func TestAnalyzeRetriesWhatAModelFailedOn(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := run(t, "", "sim", "--rule", "majority", "--runs", "2", "--rounds", "2", "--out", dir); code != 0 {
		t.Fatalf("sim: %s", errOut)
	}
	var down atomic.Bool
	down.Store(true)
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		if down.Load() {
			return openaitest.Status(403, "model access denied")
		}
		return actsByText(r)
	})
	defer srv.Close()
	args := []string{"analyze", dir, "--acts", "llm", "--samples", "1", "--llm-base-url", srv.URL(), "--llm-model", "m"}
	code, out, errOut := run(t, "", args...)
	if code != 1 || !strings.Contains(errOut, "12 messages have no dialogue-acts") || !strings.Contains(out, "Table 9 and Figure 4") {
		t.Fatalf("model down: exit %d\n%s\n%s", code, out, errOut)
	}
	failed := srv.Count(nil)
	down.Store(false)
	code, out, errOut = run(t, "", args...)
	if code != 0 || srv.Count(nil)-failed != 12 {
		t.Fatalf("model back: exit %d, %d requests, want 12\n%s\n%s", code, srv.Count(nil)-failed, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "analysis", "table9_dialogue_acts.png")); err != nil {
		t.Error(err)
	}
}

// recommendationFiles are the files a recommendation run gives analyze.
var recommendationFiles = []string{
	"index.md", "figure2b_not_agreed.csv", "figure2b_not_agreed.png", "figure2b_not_agreed.svg",
	"figure3a_mae_per_round.csv", "figure3a_mae_per_round.png", "figure3a_mae_per_round.svg",
	"figure3b_rmse_per_round.csv", "figure3b_rmse_per_round.png", "figure3b_rmse_per_round.svg",
	"table10_early_stopping_recommendation.csv", "table2_early_stopping_recommendation.csv", "table11_early_stopping_stats_recommendation.csv",
	"table8_linguistic.csv", "table8_words.csv", "table8_words.png", "table8_words.svg",
	"table8_fk_grade.csv", "table8_fk_grade.png", "table8_fk_grade.svg",
	"table8_info_diff.csv", "table8_info_diff.png", "table8_info_diff.svg",
	"table9_dialogue_acts.csv", "table9_dialogue_acts.png", "table9_dialogue_acts.svg",
	"figure4_transitions_recommendation.csv", "figure4_transitions_recommendation.dot", "figure4_transitions_recommendation.png", "figure4_transitions_recommendation.svg",
}

// Recommendation tables are scored from the truth in their logs: Figure 3
// and Table 2 with no model.
func TestAnalyzeOfflineRecommendationRun(t *testing.T) {
	data, dir := t.TempDir(), t.TempDir()
	if err := recommend.WriteSynthetic(data, 60, 300, 5); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, "", "sim", "--task", "recommendation", "--agent", "baseline", "--data", data,
		"--rule", "plurality", "--rounds", "3", "--runs", "6", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d %s", code, errOut)
	}
	code, out, errOut := run(t, "", "analyze", dir)
	if code != 0 {
		t.Fatalf("analyze: exit %d %s\n%s", code, errOut, out)
	}
	checkAnalysis(t, filepath.Join(dir, "analysis"), recommendationFiles...)
	rows := readCSV(t, filepath.Join(dir, "analysis", "table2_early_stopping_recommendation.csv"))
	last := rows[len(rows)-1]
	baseline, oracle := parseFloat(t, rows[1][1]), parseFloat(t, last[1])
	if last[0] != "Oracle" || oracle > baseline || baseline > 4 {
		t.Errorf("table 2: oracle MAE %v, baseline %v; want 0 <= oracle <= baseline <= 4:\n%v", oracle, baseline, rows)
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func parseFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// A database another process holds (a live server) is refused with what
// to do instead.
func TestALockedDatabaseSaysToUseABackup(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := run(t, "", "sim", "--rule", "majority", "--runs", "1", "--rounds", "1", "--out", dir); code != 0 {
		t.Fatalf("sim: %s", errOut)
	}
	path := filepath.Join(dir, "roundtable.db")
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := filepath.Join(t.TempDir(), "rt.toml")
	if err := os.WriteFile(cfg, []byte("[store]\nlock_timeout = \"1ms\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"analyze", dir}, {"export", "--db", path}, {"tables", "--db", path}} {
		code, _, errOut := run(t, "", append([]string{"--config", cfg}, args...)...)
		if code == 0 || !strings.Contains(errOut, "in use by another process") || !strings.Contains(errOut, "roundtable backup") {
			t.Errorf("%s: exit %d %q", args[0], code, errOut)
		}
	}
}

// addUnstartedTable stores a table that has not started: analyze leaves
// it out and says so.
func addUnstartedTable(t *testing.T, path string) {
	t.Helper()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := roundtable.Config{Rule: vote.Plurality, Rounds: 3, Task: roundtable.TaskSpec{Kind: "text", Topic: "lunch"}}
	if _, err := roundtable.Create(t.Context(), db, roundtable.SystemClock{}, roundtable.TextTask{Topic: "lunch"}, "waiting", cfg); err != nil {
		t.Fatal(err)
	}
}
