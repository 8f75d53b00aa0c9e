package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

// recipeConfig is a config with one endpoint on srv at temperature temp
// and one [[agent]] preset with memory mem.
func recipeConfig(t *testing.T, srv *openaitest.Server, temp, mem string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "roundtable.toml")
	body := fmt.Sprintf(`[[llm]]
name = "lab"
base_url = %q
model = "m-a"
temperature = %s

[[agent]]
name = "Ada"
endpoint = "lab"
memory = %q
`, srv.URL(), temp, mem)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSimNeverReusesAnotherRecipe: a second run into the same directory
// that changes the model, the temperature, the memory or the topic reuses
// none of the first run's tables: it stops naming what differs, asking no
// model; with --new-tables it runs new tables beside them, and its
// summary names its own model.
func TestSimNeverReusesAnotherRecipe(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	base := recipeConfig(t, srv, "0.2", "full")
	cases := []struct {
		name, config string
		flags        []string
		key          string
	}{
		{"model", base, []string{"--llm-model", "m-b"}, `provenance.agents.agent-1.model: "m-a" stored, "m-b" asked`},
		{"temperature", recipeConfig(t, srv, "0.9", "full"), nil, `provenance.agents.agent-1.temperature: 0.2 stored, 0.9 asked`},
		{"memory", recipeConfig(t, srv, "0.2", "reflective"), nil, `provenance.agents.agent-1.memory: "full" stored, "reflective" asked`},
		{"topic", base, []string{"--topic", "Which bug first?"}, `task.topic: "Which feature next?" stored, "Which bug first?" asked`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			sim := func(config string, more ...string) (int, string, string) {
				args := []string{"--config", config, "sim", "--task", "text", "--topic", "Which feature next?", "--agent", "llm",
					"--rule", "plurality", "--rounds", "2", "--runs", "2", "--concurrency", "1", "--out", dir}
				return run(t, "", append(args, more...)...)
			}
			if code, _, errOut := sim(base); code != 0 {
				t.Fatalf("first run: exit %d: %s", code, errOut)
			}
			calls := srv.Count(nil)
			code, _, errOut := sim(c.config, c.flags...)
			if code == 0 || !strings.Contains(errOut, c.key) || !strings.Contains(errOut, "--new-tables") {
				t.Fatalf("second run: exit %d, %q: want a refusal naming %s", code, errOut, c.key)
			}
			if n := srv.Count(nil) - calls; n != 0 {
				t.Errorf("the refused run asked the model %d times", n)
			}
			code, _, errOut = sim(c.config, append(c.flags, "--new-tables")...)
			if code != 0 {
				t.Fatalf("--new-tables: exit %d: %s", code, errOut)
			}
			if srv.Count(nil) == calls {
				t.Error("--new-tables asked no model: it reused the first run's tables")
			}
			rep := readSummary(t, dir)
			for _, r := range rep.Rules["plurality"].Runs {
				if !strings.Contains(r.Table, "-0001-") && !strings.Contains(r.Table, "-0002-") {
					t.Errorf("table %s is not a new table beside the first run's", r.Table)
				}
			}
		})
	}
}

// TestModelThatAnsweredIsRecorded: the model the server says answered,
// another than the one asked, is in every action's usage in the log and in
// summary.json beside the model asked for, with the build.
func TestModelThatAnsweredIsRecorded(t *testing.T) {
	srv := openaitest.NewServer(openaitest.AnsweredBy("m-a-2025-06-01", nil))
	defer srv.Close()
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--task", "text", "--topic", "Which feature next?", "--agent", "llm", "--llm-base-url", srv.URL(),
		"--llm-model", "m-a", "--rule", "plurality", "--rounds", "2", "--runs", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, log, errOut := run(t, "", "export", "--db", filepath.Join(dir, "roundtable.db"), "--format", "jsonl")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if !strings.Contains(lines[0], `"provenance":{"software":{"version":`) || !strings.Contains(lines[0], `"model":"m-a"`) {
		t.Errorf("the creation record lacks the build or the model asked: %s", lines[0])
	}
	answered := 0
	for _, l := range lines {
		if strings.Contains(l, `"usage":{`) {
			if !strings.Contains(l, `"model":"m-a-2025-06-01"`) {
				t.Errorf("an action's usage lacks the model that answered: %s", l)
			}
			answered++
		}
	}
	if answered == 0 {
		t.Error("no action records its usage")
	}
	rep := readSummary(t, dir)
	agents := rep.Rules["plurality"].Agents
	if len(agents) != 1 || agents[0].Model != "m-a" || strings.Join(agents[0].Answered, ",") != "m-a-2025-06-01" || agents[0].Seats != 3 {
		t.Errorf("summary.json agents: %+v", agents)
	}
	if rep.Software.Revision == "" || len(rep.Rules["plurality"].Software) != 1 {
		t.Errorf("summary.json software: %+v, %+v", rep.Software, rep.Rules["plurality"].Software)
	}
}

// summaryFile is what the tests read of summary.json.
type summaryFile struct {
	Software struct{ Version, Revision string } `json:"software"`
	Rules    map[string]struct {
		Runs []struct {
			Table string `json:"table"`
		} `json:"runs"`
		Software []json.RawMessage `json:"software"`
		Agents   []struct {
			Model    string   `json:"model"`
			Answered []string `json:"answered"`
			Seats    int      `json:"seats"`
		} `json:"agents"`
	} `json:"rules"`
}

func readSummary(t *testing.T, dir string) summaryFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s summaryFile
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}
