package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

// liveStudyFile is a study of two conditions of two people and one
// language model each.
const liveStudyFile = `name = "seminar"
seed = 3
[defaults]
task = "text"
question = "Which trip do we take in spring?"
agent = "llm"
rounds = 1
seats = 3
humans = 2
durations = { message = "5m", proposal = "5m", vote = "5m" }
[[condition]]
name = "plurality"
rule = "plurality"
[[condition]]
name = "approval"
rule = "approval"
`

// TestServeStudySeatsACohort runs `serve --study`: it prints the cohort
// link, its code and the host's dashboard; four people open the link over
// HTTP and are seated two by two at one table of each condition, which
// start together (the wave is full), their bots on a fake model server;
// the host's dashboard shows both; the lobby does not offer the study's
// conditions as presets.
func TestServeStudySeatsACohort(t *testing.T) {
	llm := openaitest.NewServer(nil)
	defer llm.Close()
	dir := t.TempDir()
	study := filepath.Join(dir, "seminar.toml")
	if err := os.WriteFile(study, []byte(liveStudyFile), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, fmt.Sprintf("[store]\npath = %q\n[[llm]]\nname = \"fake\"\nbase_url = %q\nmodel = \"test-model\"\n", filepath.Join(dir, "rt.db"), llm.URL()))
	srv := startServe(t, cfg, nil, "--web-addr", "127.0.0.1:0", "--study", study)
	m := srv.waitOutput(regexp.MustCompile(`Study: everyone opens (http://127\.0\.0\.1:\d+/c/([A-Z0-9]{6})) \(or types the code ([A-Z0-9]{6}) at \S+\); your dashboard: (\S+)`))
	cohort, code, dash := m[1], m[2], m[4]
	if m[3] != code {
		t.Fatalf("the code printed %q differs from the link's %q", m[3], code)
	}
	host := srv.waitOutput(regexp.MustCompile(`Open (http://\S+/host\?k=\S+)`))[1]
	rooms := map[string]int{}
	for i := range 4 {
		rooms[seatAt(t, cohort, fmt.Sprintf("Student %d", i+1))]++
	}
	if len(rooms) != 2 {
		t.Fatalf("4 people sat at %v, want 2 tables of 2", rooms)
	}
	jar, _ := cookiejar.New(nil)
	h := &http.Client{Jar: jar}
	get := func(u string) string {
		resp, err := h.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", u, resp.StatusCode, b)
		}
		return string(b)
	}
	lobby := get(host)
	if strings.Contains(lobby, "study:") {
		t.Error("the lobby offers the study's conditions as presets")
	}
	page := get(dash)
	for _, want := range []string{`id="condition-plurality"`, `id="condition-approval"`, "2 seated · 1 table of 2 people", "running · message", "4 of 4", "started", code} {
		if !strings.Contains(page, want) {
			t.Errorf("the dashboard lacks %q:\n%s", want, page)
		}
	}
	srv.stop()
}

// seatAt opens a study's cohort link as a new person named name, takes a
// seat and returns the room it leads to.
func seatAt(t *testing.T, cohort, name string) string {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	resp, err := (&http.Client{Jar: jar}).PostForm(cohort, url.Values{"name": {name}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	room, ok := strings.CutPrefix(resp.Request.URL.Path, "/r/")
	if resp.StatusCode != http.StatusOK || !ok {
		t.Fatalf("%s at %s: %d at %s\n%.400s", name, cohort, resp.StatusCode, resp.Request.URL, body)
	}
	return room
}

// TestServeStudyRefusesWhatLiveTablesDoNotPlay: a study whose condition
// asks live tables for what they do not play stops serve with the
// condition and the key named.
func TestServeStudyRefusesWhatLiveTablesDoNotPlay(t *testing.T) {
	dir := t.TempDir()
	study := filepath.Join(dir, "s.toml")
	for _, item := range []string{"Ann", "Ben"} {
		if err := os.WriteFile(filepath.Join(dir, item+".txt"), []byte(item+" ships small things often."), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	text := liveStudyFile + "[[condition]]\nname = \"judges\"\nprotocol = \"panel\"\nagent = \"evaluator\"\nitems = [\"Ann\", \"Ben\"]\nitem_dir = \".\"\n"
	if err := os.WriteFile(study, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := writeConfig(t, fmt.Sprintf("[store]\npath = %q\n[[llm]]\nname = \"fake\"\nbase_url = \"http://127.0.0.1:1/v1\"\nmodel = \"m\"\n", filepath.Join(dir, "rt.db")))
	var out strings.Builder
	app := &App{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}
	code := app.Run(t.Context(), []string{"--config", cfg, "serve", "--web-addr", "127.0.0.1:0", "--study", study})
	if code == 0 || !strings.Contains(out.String(), `condition "judges": agent: "evaluator"`) {
		t.Errorf("serve --study with model-free judges reading documents: exit %d\n%s", code, out.String())
	}
}
