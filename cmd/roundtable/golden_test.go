package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
)

// -update rewrites the golden files of TestGoldenRuns from the code as it is.
var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenRun is one small, seeded sim run whose outputs are kept as golden
// files: a change that moves code must leave every one of them equal.
type goldenRun struct {
	name string
	args func(t *testing.T, env goldenEnv) []string
}

// goldenEnv is what the runs share: the fake model server and the inputs
// written for the run.
type goldenEnv struct {
	llm   string // the fake model server's base URL
	items string // the panel's documents
	data  string // a synthetic MovieLens-100k directory
}

var goldenRuns = []goldenRun{
	{"exchange", func(*testing.T, goldenEnv) []string {
		return []string{"--rule", "all", "--runs", "2", "--rounds", "4"}
	}},
	{"exchange-consecutive", func(*testing.T, goldenEnv) []string {
		return []string{"--rule", "majority", "--runs", "2", "--rounds", "5", "--early-stop", "consecutive-agreements"}
	}},
	{"text-llm", func(_ *testing.T, e goldenEnv) []string {
		return []string{"--task", "text", "--topic", "Which feature next?", "--agent", "llm", "--llm-base-url", e.llm,
			"--llm-model", "golden-model", "--rule", "plurality", "--rounds", "3", "--runs", "2"}
	}},
	{"recommendation", func(_ *testing.T, e goldenEnv) []string {
		return []string{"--task", "recommendation", "--agent", "baseline", "--data", e.data, "--rule", "rated", "--rounds", "3", "--runs", "3"}
	}},
	{"panel", func(_ *testing.T, e goldenEnv) []string {
		return []string{"--protocol", "panel", "--item-dir", e.items, "--roles", "CFO,VP of Engineering,Plant Manager",
			"--question", "Who should we hire as data engineer?", "--agents", "3", "--rounds", "5", "--runs", "2"}
	}},
	{"chatroom", func(*testing.T, goldenEnv) []string {
		return []string{"--protocol", "chatroom", "--question", "Cities should ban cars from their centres.", "--agents", "4", "--rounds", "6", "--runs", "2"}
	}},
	{"chatroom-echo", func(*testing.T, goldenEnv) []string {
		return []string{"--protocol", "chatroom", "--stances", "echo:-2", "--question", "Cities should ban cars from their centres.", "--agents", "4", "--rounds", "6", "--runs", "2"}
	}},
	{"dyads", func(*testing.T, goldenEnv) []string {
		return []string{"--protocol", "dyads", "--question", "The earth is round.", "--agents", "5", "--rounds", "20", "--runs", "2"}
	}},
	{"dyads-deffuant", func(*testing.T, goldenEnv) []string {
		return []string{"--protocol", "dyads", "--agent", "deffuant", "--stances", "continuous", "--question", "The earth is round.", "--agents", "5", "--rounds", "20", "--runs", "2"}
	}},
	{"questionnaire", func(*testing.T, goldenEnv) []string {
		return []string{"--protocol", "questionnaire", "--question", "Cities should ban cars from their centres.", "--agents", "4", "--runs", "2"}
	}},
}

// goldenAnswering is the model the golden runs' server says answered,
// another than the one asked ("golden-model"), as real servers may.
const goldenAnswering = "golden-model-2025-06-01"

// TestGoldenRuns runs every protocol and task once with a fixed seed, one
// table at a time, then analyze, and compares the event logs, summary.json,
// index.md and every CSV with testdata/golden. Only what the clock decides
// (event times, wall times, model latencies, the run's paths) is masked,
// and what changes with every commit: the build (software: version and
// revision) and the prompts' version (a template hash, which
// TestPromptVersion* check).
func TestGoldenRuns(t *testing.T) {
	srv := openaitest.NewServer(openaitest.AnsweredBy(goldenAnswering, nil))
	defer srv.Close()
	env := goldenEnv{llm: srv.URL(), items: itemDir(t), data: t.TempDir()}
	if err := recommend.WriteSynthetic(env.data, 60, 80, 3); err != nil {
		t.Fatal(err)
	}
	for _, g := range goldenRuns {
		t.Run(g.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), g.name)
			args := append([]string{"sim", "--seed", "11", "--concurrency", "1", "--out", dir}, g.args(t, env)...)
			if code, _, errOut := run(t, "", args...); code != 0 {
				t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
			}
			if code, _, errOut := run(t, "", "analyze", dir); code != 0 {
				t.Fatalf("analyze: exit %d: %s", code, errOut)
			}
			code, log, errOut := run(t, "", "export", "--db", filepath.Join(dir, "roundtable.db"), "--format", "jsonl")
			if code != 0 {
				t.Fatalf("export: exit %d: %s", code, errOut)
			}
			mask := goldenMask{dir: dir, llm: env.llm, items: env.items, data: env.data}
			got := map[string][]byte{"log.jsonl": mask.text([]byte(log))}
			got["summary.json"] = mask.summary(t, filepath.Join(dir, "summary.json"))
			analysis := filepath.Join(dir, "analysis")
			err := filepath.WalkDir(analysis, func(path string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".csv") || strings.HasSuffix(path, ".md")) {
					return err
				}
				b, err := os.ReadFile(path)
				rel, _ := filepath.Rel(analysis, path)
				got[filepath.ToSlash(filepath.Join("analysis", rel))] = mask.text(b)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, filepath.Join("testdata", "golden", g.name), got)
		})
	}
}

// goldenMask hides what differs between two runs of the same seed.
type goldenMask struct{ dir, llm, items, data string }

var (
	goldenTime     = regexp.MustCompile(`"time":"[^"]*"`)
	goldenLatency  = regexp.MustCompile(`,"latency_ms":[0-9]+`)
	goldenSoftware = regexp.MustCompile(`"software":\{"version":"[^"]+","revision":"[^"]+"(,"modified":true)?\}`)
	goldenTemplate = regexp.MustCompile(`"template":"[0-9a-f]{12}"`)
	goldenBuild    = regexp.MustCompile("(?m)^(- Software: ).*$")
)

func (m goldenMask) text(b []byte) []byte {
	s := goldenTime.ReplaceAllString(string(b), `"time":"T"`)
	s = goldenLatency.ReplaceAllString(s, "")
	s = goldenSoftware.ReplaceAllString(s, `"software":"SOFTWARE"`)
	s = goldenTemplate.ReplaceAllString(s, `"template":"PROMPT"`)
	s = goldenBuild.ReplaceAllString(s, "${1}SOFTWARE")
	for old, new := range map[string]string{m.dir: "RUN", m.llm: "LLM", m.items: "ITEMS", m.data: "DATA"} {
		s = strings.ReplaceAll(s, old, new)
	}
	return []byte(s)
}

// summary masks summary.json's wall times (started, wall_ns, the phases'
// durations) and model latencies, wherever they stand.
func (m goldenMask) summary(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				switch k {
				case "started", "wall_ns":
					x[k] = "T"
				case "software":
					x[k] = "SOFTWARE"
				case "template":
					if t, ok := e.(string); ok && goldenTemplate.MatchString(`"template":"`+t+`"`) {
						x[k] = "PROMPT"
					}
				case "latency_ms":
					delete(x, k)
				case "phases", "phase_wall_ns":
					if ph, ok := e.(map[string]any); ok {
						for p := range ph {
							ph[p] = "T"
						}
					}
				default:
					walk(e)
				}
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return m.text(append(out, '\n'))
}

// compareGolden compares the files got with those in dir, or writes them
// there under -update. A file missing on either side is a difference.
func compareGolden(t *testing.T, dir string, got map[string][]byte) {
	t.Helper()
	if *updateGolden {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for name, b := range got {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	var want []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, path)
			want = append(want, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatalf("read golden files (run with -update to write them): %v", err)
	}
	var names []string
	for n := range got {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range want {
		if _, ok := got[n]; !ok {
			t.Errorf("%s: the run no longer writes it", n)
		}
	}
	for _, n := range names {
		w, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(n)))
		if err != nil {
			t.Errorf("%s: written by the run, not in the golden files", n)
			continue
		}
		if !bytes.Equal(w, got[n]) {
			t.Errorf("%s differs from the golden file:\n%s", n, firstDiff(w, got[n]))
		}
	}
}

// firstDiff shows the first line that differs.
func firstDiff(want, got []byte) string {
	wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + "\n  want: " + clip(w, 400) + "\n  got:  " + clip(g, 400)
		}
	}
	return "(same lines)"
}
