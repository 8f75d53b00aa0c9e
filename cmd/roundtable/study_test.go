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

// modelStudy is a study of two conditions whose bots are language models.
const modelStudy = `name = "feature"
seed = 2
replications = 2

[defaults]
task = "text"
question = "Which feature next?"
agent = "llm"
rounds = 2
seats = 2

[grid]
rule = ["plurality", "borda"]
`

// writeStudy writes a study file and a config with one endpoint "lab" on
// srv asking model, priced, and returns their paths.
func writeStudy(t *testing.T, srv *openaitest.Server, study, model string) (studyPath, config string) {
	t.Helper()
	dir := t.TempDir()
	studyPath, config = filepath.Join(dir, "study.toml"), filepath.Join(dir, "roundtable.toml")
	cfg := fmt.Sprintf("[[llm]]\nname = \"lab\"\nbase_url = %q\nmodel = %q\nprice_per_1k_prompt = 0.5\nprice_per_1k_completion = 2\n", srv.URL(), model)
	if err := os.WriteFile(studyPath, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return studyPath, config
}

// TestStudyCheckCountsCallsAndCost: study check prints every condition
// with its tables, and the model calls and cost counted on a rehearsal
// against a stand-in model, never the configured endpoint.
func TestStudyCheckCountsCallsAndCost(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	study, config := writeStudy(t, srv, modelStudy, "m-a")
	code, out, errOut := run(t, "", "--config", config, "study", "check", study)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"2 conditions × 2 replications = 4 tables", "rule-plurality", "rule-borda", "CALLS/TABLE", "lab", "m-a", "Estimated cost of the study: "} {
		if !strings.Contains(out, want) {
			t.Errorf("check output lacks %q:\n%s", want, out)
		}
	}
	if n := srv.Count(nil); n != 0 {
		t.Errorf("check asked the configured endpoint %d times", n)
	}
	code, out, errOut = run(t, "", "study", "check", study)
	if code != 0 || !strings.Contains(out, "No [[llm]] endpoint is configured") || !strings.Contains(out, "no price configured") {
		t.Errorf("no endpoint configured: exit %d: %s%s", code, out, errOut)
	}
	offline := strings.Replace(modelStudy, `agent = "llm"`, `agent = "utility"`, 1)
	offline = strings.Replace(offline, `task = "text"`, `task = "exchange"`, 1)
	study, config = writeStudy(t, srv, offline, "m-a")
	code, out, errOut = run(t, "", "--config", config, "study", "check", study)
	if code != 0 || !strings.Contains(out, "Model calls: none") {
		t.Errorf("offline study: exit %d: %s%s", code, out, errOut)
	}
}

// TestStudyCheckNamesLineAndKey: a bad study file is a usage error that
// names the file, the line, the condition and the key.
func TestStudyCheckNamesLineAndKey(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	study, config := writeStudy(t, srv, "name = \"s\"\n[[condition]]\nname = \"a\"\nrule = \"majorty\"\n", "m-a")
	code, _, errOut := run(t, "", "--config", config, "study", "check", study)
	if code != 2 || !strings.Contains(errOut, study+`:4: condition "a": rule:`) {
		t.Errorf("exit %d: %s", code, errOut)
	}
	study, config = writeStudy(t, srv, modelStudy, "m-a")
	code, _, errOut = run(t, "", "--config", config, "study", "run", study, "--condition", "rule-nope", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errOut, `--condition: study feature has no condition "rule-nope" (it has rule-plurality, rule-borda)`) {
		t.Errorf("unknown condition: exit %d: %s", code, errOut)
	}
	study, config = writeStudy(t, srv, "name = \"s\"\n[[condition]]\nname = \"a\"\nagent = \"llm\"\ntask = \"text\"\nquestion = \"Q?\"\n[[condition.bot]]\nendpoint = \"nowhere\"\n", "m-a")
	code, _, errOut = run(t, "", "--config", config, "study", "run", study, "--out", t.TempDir())
	if code != 2 || !strings.Contains(errOut, `condition "a" bot[0].endpoint: no [[llm]] endpoint is named "nowhere"`) {
		t.Errorf("unknown endpoint: exit %d: %s", code, errOut)
	}
}

// TestStudyRunNeverReusesAnotherModel reproduces the finding: a
// study run with model m-b into the directory of a run with m-a reused
// m-a's tables and printed their numbers as m-b's. Now it stops naming
// the model, asking nothing; --new-tables runs m-b's tables beside them;
// summary.json says which model made each condition's tables.
func TestStudyRunNeverReusesAnotherModel(t *testing.T) {
	srv := openaitest.NewServer(openaitest.AnsweredBy("m-a-2025-06-01", nil))
	defer srv.Close()
	study, config := writeStudy(t, srv, modelStudy, "m-a")
	dir := t.TempDir()
	studyRun := func(more ...string) (int, string, string) {
		return run(t, "", append([]string{"--config", config, "study", "run", study, "--out", dir, "--concurrency", "1"}, more...)...)
	}
	if code, out, errOut := studyRun(); code != 0 || !strings.Contains(out, "== condition rule-borda") {
		t.Fatalf("first run: exit %d: %s%s", code, out, errOut)
	}
	calls := srv.Count(nil)
	if code, _, errOut := studyRun(); code != 0 || srv.Count(nil) != calls {
		t.Fatalf("the same study again: exit %d (%s), %d calls: want every table reused", code, errOut, srv.Count(nil)-calls)
	}
	code, _, errOut := studyRun("--llm-model", "m-b")
	if code == 0 || !strings.Contains(errOut, `model: "m-a" stored, "m-b" asked`) || !strings.Contains(errOut, "--new-tables") {
		t.Fatalf("another model: exit %d, %q: want a refusal naming the model", code, errOut)
	}
	if n := srv.Count(nil) - calls; n != 0 {
		t.Errorf("the refused run asked the model %d times", n)
	}
	if code, _, errOut := studyRun("--llm-model", "m-b", "--new-tables"); code != 0 {
		t.Fatalf("--new-tables: exit %d: %s", code, errOut)
	}
	if srv.Count(nil) == calls {
		t.Error("--new-tables asked no model: it reused m-a's tables")
	}
	var rep struct {
		Conditions map[string]struct {
			Rules map[string]struct {
				Agents []struct {
					Model    string   `json:"model"`
					Answered []string `json:"answered"`
				} `json:"agents"`
			} `json:"rules"`
		} `json:"conditions"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	agents := rep.Conditions["rule-borda"].Rules["borda"].Agents
	if len(agents) != 1 || agents[0].Model != "m-b" || strings.Join(agents[0].Answered, ",") != "m-a-2025-06-01" {
		t.Errorf("summary.json rule-borda agents: %+v, want m-b asked, m-a-2025-06-01 answering", agents)
	}
	code, out, errOut := run(t, "", "--config", config, "study", "analyze", dir, "--permutations", "50")
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	index, err := os.ReadFile(filepath.Join(dir, "analysis", "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rule-borda-p1", "rule-borda-p2", "model `m-a`", "model `m-b`"} {
		if !strings.Contains(string(index), want) {
			t.Errorf("index.md lacks %q (m-a's and m-b's tables are not pooled):\n%s\n%s", want, index, out)
		}
	}
}
