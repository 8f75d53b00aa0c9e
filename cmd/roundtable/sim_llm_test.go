package main

import (
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
)

// The quick-run path of the README: no config file, the endpoint from flags.
func TestSimWithLLMAgentsFromFlags(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	code, out, errOut := run(t, "", "sim", "--task", "text", "--topic", "Which feature next?", "--agent", "llm",
		"--llm-base-url", srv.URL(), "--llm-model", "test-model", "--rule", "plurality", "--rounds", "3", "--runs", "2", "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Free-text task", "plurality", "DECIDED@R", "llm default:", "prompt", "tokens/", "tables in"} {
		if !strings.Contains(out, want) && !(want == "tokens/" && strings.Contains(out, "tables/s")) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if srv.Count(nil) < 2*3*3*3 {
		t.Errorf("%d model calls, want at least one per agent, phase and round", srv.Count(nil))
	}
}

func TestSimLLMExchangeAndRecommendation(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	base := []string{"sim", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m", "--rounds", "2", "--runs", "2", "--rule", "rated"}
	code, out, errOut := run(t, "", append(base, "--task", "exchange", "--out", t.TempDir())...)
	if code != 0 || !strings.Contains(out, "U@10") {
		t.Fatalf("exchange: exit %d %s\n%s", code, errOut, out)
	}
	data := t.TempDir()
	if err := recommend.WriteSynthetic(data, 60, 80, 3); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = run(t, "", append(base, "--task", "recommendation", "--data", data, "--out", t.TempDir())...)
	if code != 0 || !strings.Contains(out, "MAE") || !strings.Contains(out, "always 4") {
		t.Fatalf("recommendation: exit %d %s\n%s", code, errOut, out)
	}
}

func TestSimLLMNeedsAnEndpointAndKey(t *testing.T) {
	code, _, errOut := run(t, "", "sim", "--task", "text", "--topic", "x", "--agent", "llm", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "no language model is configured") {
		t.Errorf("exit %d %q", code, errOut)
	}
	code, _, errOut = run(t, "", "sim", "--task", "text", "--topic", "x", "--agent", "llm", "--llm-base-url", "http://127.0.0.1:1/v1",
		"--llm-model", "m", "--llm-api-key-env", "ROUNDTABLE_TEST_UNSET_KEY", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "ROUNDTABLE_TEST_UNSET_KEY") {
		t.Errorf("exit %d %q: want the unset variable named", code, errOut)
	}
}
