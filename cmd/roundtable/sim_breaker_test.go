package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

// endpointConfig writes a config whose one endpoint is srv, never retried,
// given up after two calls in a row find no server.
func endpointConfig(t *testing.T, srv *openaitest.Server, extra string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "rt.toml")
	body := "[[llm]]\nname = \"local\"\nbase_url = \"" + srv.URL() + "\"\nmodel = \"m\"\nmax_retries = -1\nbreaker_failures = 2\n" + extra
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestSimStopsWithOneMessageWhenTheEndpointCannotServe(t *testing.T) {
	for name, c := range map[string]struct {
		reply openaitest.Reply
		fix   string
	}{
		"dead":  {openaitest.Drop(), "check that it is running"},
		"key":   {openaitest.Unauthorized(), "check api_key_env"},
		"quota": {openaitest.InsufficientQuota(), "no quota left"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := openaitest.NewServer(openaitest.Inject(openaitest.Responder{}.Handle,
				openaitest.Fault{Match: openaitest.Contains("Round 2 of 3"), Times: -1, Reply: openaitest.Always(c.reply)}))
			defer srv.Close()
			out := t.TempDir()
			code, stdout, errOut := run(t, "", "--config", endpointConfig(t, srv, ""), "sim", "--task", "text", "--topic", "x",
				"--agent", "llm", "--rule", "plurality", "--rounds", "3", "--runs", "2", "--out", out)
			if code != 1 || strings.Count(errOut, c.fix) != 1 || !strings.Contains(errOut, `openai endpoint "local"`) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit 1 and one message naming the endpoint and %q", code, errOut, c.fix)
			}
			if strings.Contains(stdout, "RULE") {
				t.Errorf("a table was printed after the run stopped:\n%s", stdout)
			}
			if _, err := os.Stat(filepath.Join(out, "summary.json")); err == nil {
				t.Error("summary.json was written for a stopped run")
			}
			// Resumed against a healthy server, the tables finish with no failures.
			healthy := openaitest.NewServer(nil)
			defer healthy.Close()
			code, stdout, errOut = run(t, "", "--config", endpointConfig(t, healthy, ""), "sim", "--task", "text", "--topic", "x",
				"--agent", "llm", "--rule", "plurality", "--rounds", "3", "--runs", "2", "--out", out)
			if code != 0 || !regexp.MustCompile(` 0/\d+ \(0%\)`).MatchString(stdout) {
				t.Fatalf("resume: exit %d %s\n%s", code, errOut, stdout)
			}
		})
	}
}

func TestSimPrintsFailedActions(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Inject(openaitest.Responder{}.Handle,
		openaitest.Fault{Match: openaitest.All(openaitest.Persona("Agent 1"), openaitest.Schema("message")), Times: -1,
			Reply: openaitest.Always(openaitest.Truncated("{"))}))
	defer srv.Close()
	code, out, errOut := run(t, "", "--config", endpointConfig(t, srv, ""), "sim", "--task", "text", "--topic", "x", "--agent", "llm",
		"--rule", "plurality", "--rounds", "2", "--runs", "1", "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "FAILED ACTIONS") || !strings.Contains(out, "2/18 (11%)") {
		t.Errorf("want a FAILED ACTIONS column with 2 of 18 actions failed:\n%s", out)
	}
	if !strings.Contains(out, "failed actions plurality, per table by kind: length 2.00") {
		t.Errorf("want the failures by kind:\n%s", out)
	}
}

func TestEndpointSettingsReachTheWire(t *testing.T) {
	for name, c := range map[string]struct {
		extra string
		want  string // the temperature member of the body, "" for none
	}{
		"zero":  {"temperature = 0\n", `"temperature":0,`},
		"set":   {"temperature = 0.3\n", `"temperature":0.3`},
		"unset": {"", ""},
	} {
		t.Run(name, func(t *testing.T) {
			srv := openaitest.NewServer(nil)
			defer srv.Close()
			code, _, errOut := run(t, "", "--config", endpointConfig(t, srv, c.extra), "sim", "--task", "text", "--topic", "x",
				"--agent", "llm", "--rule", "plurality", "--rounds", "1", "--runs", "1", "--out", t.TempDir())
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			body := string(srv.Requests()[0].Body)
			if (c.want == "" && strings.Contains(body, "temperature")) || (c.want != "" && !strings.Contains(body, c.want)) {
				t.Errorf("body %s; want temperature %q", body, c.want)
			}
		})
	}
}

func TestEndpointConcurrencyCoversATable(t *testing.T) {
	cfg, err := LoadConfig("")
	if err != nil {
		t.Fatal(err)
	}
	cfg.LLM = []LLMConfig{{Name: "a", BaseURL: "http://127.0.0.1:1/v1", Model: "m"}, {Name: "b", BaseURL: "http://127.0.0.1:1/v1", Model: "m", MaxConcurrent: 2}}
	app := &App{Stderr: &strings.Builder{}, Getenv: func(string) string { return "" }}
	m, err := app.newMinds(cfg, llmFlags{}, mindOptions{seats: 12})
	if err != nil {
		t.Fatal(err)
	}
	if got := client(t, m, "a").Config().MaxConcurrent; got != 12 {
		t.Errorf("default concurrency %d with 12 agents, want 12", got)
	}
	if got := client(t, m, "b").Config().MaxConcurrent; got != 2 {
		t.Errorf("configured concurrency %d, want 2", got)
	}
	if got := client(t, m, "a").Config().BreakerFailures; got != 3 {
		t.Errorf("sim breaker threshold %d, want 3", got)
	}
	live, err := app.newMinds(cfg, llmFlags{}, mindOptions{seats: 2, live: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := client(t, live, "a").Config().BreakerFailures; got != -1 {
		t.Errorf("serve breaker threshold %d, want -1 (outages do not stop a live server)", got)
	}
}

// client is the endpoint of m named name.
func client(t *testing.T, m *minds, name string) *openai.Client {
	t.Helper()
	c, ok := m.eps.Client(name)
	if !ok {
		t.Fatalf("no endpoint %q", name)
	}
	return c
}
