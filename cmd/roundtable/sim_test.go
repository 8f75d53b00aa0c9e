package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/experiment"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

func TestSimWritesSummaryAndTable(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "", "sim", "--rule", "all", "--runs", "3", "--out", dir, "--seed", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, col := range []string{"RULE", "U@3", "U@10", "AUC@10", "RATIONALITY", "MIN/MAX", "RIGIDITY", "unanimous", "cumulative", "irv", "tables/s"} {
		if !strings.Contains(out, col) {
			t.Errorf("output lacks %q:\n%s", col, out)
		}
	}
	rep := readReport(t, dir)
	maj := rep.Rules["majority"]
	if len(maj.Runs) != 3 || len(maj.Summary.Series["U"]) != 10 {
		t.Fatalf("summary for majority: %d runs, %d rounds of U", len(maj.Runs), len(maj.Summary.Series["U"]))
	}
	if u := maj.Summary.Scalars["U@10"].Mean; u <= 0 || u > 100 {
		t.Errorf("U@10 = %v, want a percentage above 0", u)
	}

	db := filepath.Join(dir, "roundtable.db")
	code, out, errOut = run(t, "", "tables", "--db", db)
	all := 3 * len(vote.Rules())
	if code != 0 || strings.Count(out, "exchange-utility-") != all {
		t.Errorf("tables: exit %d, %d tables listed (want %d)\n%s%s", code, strings.Count(out, "exchange-utility-"), all, out, errOut)
	}
	id := maj.Runs[0].Table
	for _, format := range []string{"jsonl", "csv"} {
		code, out, errOut = run(t, "", "export", "--db", db, "--table", id, "--format", format)
		if code != 0 || !strings.Contains(out, "decision_made") || !strings.Contains(out, "table_ended") {
			t.Errorf("export %s: exit %d %s\n%.300s", format, code, errOut, out)
		}
	}
	code, out, _ = run(t, "", "export", "--db", db, "--format", "csv", "--pseudonymize")
	if code != 0 || strings.Count(out, "table_created") != all || strings.Count(out, "table,seq,time,type") != 1 {
		t.Errorf("export of every table: exit %d, %d tables, %d headers", code, strings.Count(out, "table_created"), strings.Count(out, "table,seq,time,type"))
	}
	backup := filepath.Join(t.TempDir(), "copy.db")
	if code, _, errOut := run(t, "", "backup", "--db", db, backup); code != 0 {
		t.Fatalf("backup: %s", errOut)
	}
	code, out, _ = run(t, "", "export", "--db", backup, "--table", id)
	if code != 0 || !strings.Contains(out, "table_ended") {
		t.Errorf("the backup does not hold table %s", id)
	}
}

func TestSimRefusesBadFlags(t *testing.T) {
	cases := map[string][]string{
		"rule":           {"--rule", "dictator"},
		"agents":         {"--agents", "1"},
		"too many seats": {"--agents", "101"},
		"task":           {"--task", "text"},
		"agent":          {"--agent", "oracle"},
		"preset":         {"--preset", "lopsided"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			code, _, errOut := run(t, "", append([]string{"sim", "--out", t.TempDir()}, args...)...)
			if code != 2 || !strings.Contains(errOut, "--") {
				t.Errorf("exit %d, stderr %q; want 2 naming the flag", code, errOut)
			}
		})
	}
}

// TestSimRunsFiftyAgents plays an exchange table of 50 utility agents (and
// 50 goods) to its end: candidates past Z are labelled AA, AB, ...
func TestSimRunsFiftyAgents(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "", "sim", "--agents", "50", "--rounds", "2", "--runs", "1", "--rule", "plurality", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep := readReport(t, dir)
	runs := rep.Rules["plurality"].Runs
	if rep.Agents != 50 || len(runs) != 1 || runs[0].Rounds != 2 || runs[0].Reason != "rounds" || runs[0].Failures != 0 {
		t.Fatalf("summary: %d agents, runs %+v\n%s", rep.Agents, runs, out)
	}
}

// readReport reads the summary.json a sim wrote to dir.
func readReport(t *testing.T, dir string) experiment.Report {
	t.Helper()
	var rep experiment.Report
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}
