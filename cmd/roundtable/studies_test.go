package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
)

// TestStudiesRunOffline: every study file in studies/ passes study check,
// and its first and last conditions (the model conditions are last) run,
// one table each, with no model but the local fake for the conditions
// that need one; study analyze writes their results per condition:
// index.md, conditions.csv (a row per condition group), differences.csv,
// and each group's own analysis. The recommendation study reads a
// synthetic MovieLens directory where it expects the real one.
func TestStudiesRunOffline(t *testing.T) {
	srv := openaitest.NewServer(nil)
	t.Cleanup(srv.Close) // after the parallel subtests
	files, err := filepath.Glob(filepath.Join("..", "..", "studies", "*.toml"))
	if err != nil || len(files) < 6 {
		t.Fatalf("studies/: %v, %v", files, err)
	}
	studies := t.TempDir()
	if err := os.CopyFS(studies, os.DirFS(filepath.Join("..", "..", "studies"))); err != nil {
		t.Fatal(err)
	}
	movies := filepath.Join(studies, "data", "ml-100k")
	if err := os.MkdirAll(movies, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := recommend.WriteSynthetic(movies, 60, 80, 3); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		t.Run(name, func(t *testing.T) {
			t.Parallel() // the runs wait on their databases' writes more than on the CPU
			out, file := t.TempDir(), filepath.Join(studies, name+".toml")
			code, stdout, errOut := run(t, "", "study", "check", file, "--llm-base-url", srv.URL(), "--llm-model", "m-test")
			if code != 0 {
				t.Fatalf("check: exit %d: %s", code, errOut)
			}
			first, last := checkedConditions(t, stdout)
			code, stdout, errOut = run(t, "", "study", "run", file, "--out", out, "--replications", "1", "--condition", first,
				"--condition", last, "--concurrency", "2", "--llm-base-url", srv.URL(), "--llm-model", "m-test")
			if code != 0 {
				t.Fatalf("run: exit %d: %s", code, errOut)
			}
			conditions := strings.Count(stdout, "\n== condition ")
			code, _, errOut = run(t, "", "study", "analyze", out, "--permutations", "20")
			if code != 0 {
				t.Fatalf("analyze: exit %d: %s", code, errOut)
			}
			for _, file := range []string{"study.toml", "study.json", "summary.json", "analysis/index.md", "analysis/differences.csv"} {
				if _, err := os.Stat(filepath.Join(out, file)); err != nil {
					t.Errorf("no %s: %v", file, err)
				}
			}
			groups := map[string]bool{}
			for _, row := range readCSV(t, filepath.Join(out, "analysis", "conditions.csv"))[1:] {
				groups[row[0]] = true
			}
			if len(groups) != conditions || conditions != 2 {
				t.Errorf("conditions.csv has %d groups, the run printed %d conditions", len(groups), conditions)
			}
			for g := range groups {
				if _, err := os.Stat(filepath.Join(out, "analysis", "conditions", g, "index.md")); err != nil {
					t.Errorf("condition %s: %v", g, err)
				}
			}
		})
	}
}

// checkedConditions are the first and last conditions study check listed.
func checkedConditions(t *testing.T, out string) (first, last string) {
	t.Helper()
	_, table, _ := strings.Cut(out, "CONDITION")
	lines := strings.Split(strings.TrimSpace(table), "\n")[1:]
	var names []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 1 && l[0] != ' ' {
			names = append(names, f[0])
		} else {
			break
		}
	}
	if len(names) < 2 {
		t.Fatalf("study check listed %v:\n%s", names, out)
	}
	return names[0], names[len(names)-1]
}
