package experiment_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/store"
)

// describedTrader is a utility trader that says it is the model its seat
// asks for: a stand-in for a language model that needs none.
type describedTrader struct {
	roundtable.Agent
	model string
}

func (d describedTrader) Provenance(*roundtable.Protocol) roundtable.AgentProvenance {
	return roundtable.AgentProvenance{Endpoint: "lab", Model: d.model, Memory: "full", Template: "0123456789ab"}
}

// traders is a Model whose agents trade by utility and say they are the
// model asked (fallback when the seat names none).
func traders(fallback string) experiment.Model {
	return func(_ roundtable.Participant, task roundtable.Task, o experiment.ModelOptions) (roundtable.Agent, error) {
		m := o.Model
		if m == "" {
			m = fallback
		}
		return describedTrader{Agent: &exchange.UtilityAgent{Task: task.(*exchange.Task)}, model: m}, nil
	}
}

const tradeStudy = `name = "trade"
seed = 5
replications = 3

[defaults]
rounds = 4
agent = "llm"

[grid]
rule = ["majority", "borda"]
`

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestStudyRunsAndAnalyzesPerCondition: a study runs every condition ×
// replication, a second run reuses them all, and the analysis writes each
// metric per condition with its interval, the differences with a
// p-value, and the papers' figures per condition. Tables of another model
// in the same condition are a group of their own unless pooled.
func TestStudyRunsAndAnalyzesPerCondition(t *testing.T) {
	ctx := context.Background()
	s, err := experiment.ParseStudy("trade.toml", []byte(tradeStudy))
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rep, err := s.Run(ctx, db, roundtable.SystemClock{}, experiment.StudyRun{Model: traders("m-a")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Conditions) != 2 || len(rep.Conditions["rule-borda"].Rules["borda"].Runs) != 3 {
		t.Fatalf("report %+v", rep.Conditions)
	}
	first := rep.Conditions["rule-borda"].Rules["borda"].Runs[0].Table
	if first != "trade-rule-borda-0001" {
		t.Errorf("first table %s, want trade-rule-borda-0001", first)
	}
	again, err := s.Run(ctx, db, roundtable.SystemClock{}, experiment.StudyRun{Model: traders("m-a")})
	if err != nil || !again.Conditions["rule-majority"].Rules["majority"].Runs[2].Resumed {
		t.Fatalf("a second run: %v; want every table reused", err)
	}
	if _, err := s.Run(ctx, db, roundtable.SystemClock{}, experiment.StudyRun{Model: traders("m-b")}); err == nil || !strings.Contains(err.Error(), `model: "m-a" stored, "m-b" asked`) {
		t.Fatalf("another model over the stored tables: %v, want a refusal", err)
	}
	if _, err := s.Run(ctx, db, roundtable.SystemClock{}, experiment.StudyRun{Model: traders("m-b"), NewTables: true, Replications: 2}); err != nil {
		t.Fatal(err)
	}
	ids, err := tableIDs(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	in, err := experimentInstruments()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	in.Out, in.Source, in.Seed = out, "rt.db", 1
	res, err := experiment.AnalyzeStudy(ctx, db, s, ids, experiment.StudyAnalyzeOptions{AnalyzeOptions: in, Permutations: 200})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Groups, " "); got != "rule-majority-p1 rule-majority-p2 rule-borda-p1 rule-borda-p2" || res.Tables != 10 {
		t.Errorf("groups %s of %d tables, want each rule's m-a and m-b tables apart", got, res.Tables)
	}
	stats := readCSV(t, filepath.Join(out, "conditions.csv"))
	found := false
	for _, r := range stats[1:] {
		if r[0] == "rule-borda-p1" && r[1] == "U@final" {
			found = r[3] != "" && r[4] != "" && r[5] != "" && r[6] != "" && r[7] == "3"
		}
	}
	if !found {
		t.Errorf("conditions.csv lacks rule-borda-p1's U@final with its interval over 3 tables:\n%v", stats[:3])
	}
	diffs := readCSV(t, filepath.Join(out, "differences.csv"))
	if len(diffs) < 2 || diffs[0][6] != "p_value" {
		t.Fatalf("differences.csv: %v", diffs)
	}
	for _, f := range []string{"index.md", "conditions/rule-borda-p2/index.md", "conditions/rule-majority-p1/table1_exchange.csv"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.md"))
	if !strings.Contains(string(index), "model `m-b`") || !strings.Contains(string(index), "rule-majority-p2") {
		t.Errorf("index.md lacks the groups' provenance:\n%s", index)
	}

	in.Out = t.TempDir()
	res, err = experiment.AnalyzeStudy(ctx, db, s, ids, experiment.StudyAnalyzeOptions{AnalyzeOptions: withPool(in), Permutations: 200})
	if err != nil || strings.Join(res.Groups, " ") != "rule-majority rule-borda" {
		t.Errorf("pooled: groups %v: %v", res.Groups, err)
	}
}

func withPool(o experiment.AnalyzeOptions) experiment.AnalyzeOptions {
	o.Pool = true
	return o
}

func tableIDs(ctx context.Context, db *store.DB) ([]string, error) {
	sums, err := db.Tables(ctx)
	var ids []string
	for _, s := range sums {
		ids = append(ids, s.ID)
	}
	return ids, err
}

// TestStudyResumesAfterAKill: a study run stopped after its first table
// (as a kill stops it) goes on where it stopped when run again: the
// stored tables are reused or resumed, and every table's results are
// those of a run never stopped.
func TestStudyResumesAfterAKill(t *testing.T) {
	s, err := experiment.ParseStudy("trade.toml", []byte(tradeStudy))
	if err != nil {
		t.Fatal(err)
	}
	open := func() *store.DB {
		db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	whole, err := s.Run(context.Background(), open(), roundtable.SystemClock{}, experiment.StudyRun{Model: traders("m-a"), Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	db := open()
	ctx, kill := context.WithCancel(context.Background())
	defer kill()
	_, err = s.Run(ctx, db, roundtable.SystemClock{}, experiment.StudyRun{Model: traders("m-a"), Concurrency: 1, Progress: kill})
	if err == nil {
		t.Fatal("the killed run went to its end")
	}
	stored, err := tableIDs(context.Background(), db)
	if err != nil || len(stored) == 0 || len(stored) >= 6 {
		t.Fatalf("%d tables stored by the killed run (%v), want some of 6", len(stored), err)
	}
	again, err := s.Run(context.Background(), db, roundtable.SystemClock{}, experiment.StudyRun{Model: traders("m-a"), Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	resumed := 0
	for name, c := range whole.Conditions {
		for rule, res := range c.Rules {
			for i, r := range res.Runs {
				got := again.Conditions[name].Rules[rule].Runs[i]
				if got.Resumed {
					resumed++
				}
				if len(r.Measures.Series["U"]) == 0 || got.Table != r.Table || got.Rounds != r.Rounds || fmt.Sprint(got.Measures.Series["U"]) != fmt.Sprint(r.Measures.Series["U"]) {
					t.Errorf("%s after the kill: %s, %d rounds, U %v; never stopped: %s, %d rounds, U %v", name, got.Table, got.Rounds,
						got.Measures.Series["U"], r.Table, r.Rounds, r.Measures.Series["U"])
				}
			}
		}
	}
	if resumed == 0 {
		t.Error("the second run resumed none of the killed run's tables")
	}
}
