package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// childEnv makes the test binary act as the roundtable command, so tests
// can run it as a separate process (and kill it).
const childEnv = "ROUNDTABLE_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childEnv); args != "" {
		var argv []string
		if err := json.Unmarshal([]byte(args), &argv); err != nil {
			panic(err)
		}
		app := &App{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}
		os.Exit(app.Run(context.Background(), argv))
	}
	code := m.Run()
	stopEtcd()
	os.Exit(code)
}

// run runs the command in-process and returns its exit status and output.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	app := &App{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }}
	code := app.Run(context.Background(), args)
	return code, out.String(), errOut.String()
}

const exampleProfile = `{"participants": 4, "candidates": ["A","B","C"], "incumbent": "A", "ballots": [{"voter":"v1","choice":"B"}, {"voter":"v2","abstain":true}, {"voter":"v3","scores":{"A":5,"B":3,"C":1}}, {"voter":"v4","ranking":["C","A","B"]}, {"voter":"v5","points":{"A":2,"C":1}}, {"voter":"v6","approve":["A","C"]}]}`

func TestTally(t *testing.T) {
	cases := []struct {
		rule, tie, want string
		winner          any
	}{
		{"plurality", "defer", `"rejected"`, "B"},
		{"ranked", "defer", `"C"`, "C"},
		{"approval", "incumbent", `"tied"`, "A"},
	}
	for _, c := range cases {
		t.Run(c.rule, func(t *testing.T) {
			code, out, errOut := run(t, exampleProfile, "tally", "--rule", c.rule, "--tie", c.tie)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var res struct {
				Winner   any               `json:"winner"`
				Totals   map[string]any    `json:"totals"`
				Tied     []string          `json:"tied"`
				Rejected []json.RawMessage `json:"rejected"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if res.Winner != c.winner {
				t.Errorf("winner %v, want %v\n%s", res.Winner, c.winner, out)
			}
			if len(res.Rejected) == 0 {
				t.Errorf("ballots of other formats should be rejected with reasons: %s", out)
			}
		})
	}
}

func TestTallyRankedIsExact(t *testing.T) {
	prof := `{"candidates":["A","B","C"],"ballots":[{"voter":"a","ranking":["A","B","C"]},{"voter":"b","ranking":["B","C","A"]},{"voter":"c","ranking":["C","A","B"]}]}`
	code, out, _ := run(t, prof, "tally", "--rule", "ranked")
	if code != 0 || !strings.Contains(out, `"winner": null`) || !strings.Contains(out, `"A": 1.833333`) {
		t.Errorf("a three-way tie of 11/6 each must give no winner:\n%s", out)
	}
}

func TestTallyMalformedInputExitsTwo(t *testing.T) {
	cases := map[string][]string{
		"not json":      {"{", "--rule", "plurality"},
		"unknown field": {`{"candidates":["A"],"ballots":[],"extra":1}`, "--rule", "plurality"},
		"no candidates": {`{"candidates":[],"ballots":[]}`, "--rule", "plurality"},
		"unknown rule":  {`{"candidates":["A"],"ballots":[]}`, "--rule", "dictator"},
		"unknown tie":   {`{"candidates":["A"],"ballots":[]}`, "--rule", "plurality", "--tie", "coin"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := run(t, c[0], append([]string{"tally"}, c[1:]...)...)
			if code != 2 || out != "" || !strings.HasPrefix(errOut, "roundtable: ") {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 with a message on stderr", code, out, errOut)
			}
		})
	}
}
