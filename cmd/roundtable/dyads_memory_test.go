package main

import (
	"regexp"
	"strconv"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

var roundHeader = regexp.MustCompile(`## Round (\d+) of \d+`)

// dyadsPromptBytes runs a 10-agent, 100-step dyads sim with model agents
// under memory against the fake server and returns the mean prompt size
// (bytes of every message of the request) of the posts and reports of
// the first and of the last 20 steps, and the reflections asked.
func dyadsPromptBytes(tb testing.TB, memory string) (first, last float64, reflections int) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	code, _, errOut := run(tb.(*testing.T), "", "sim", "--protocol", "dyads", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--memory", memory, "--question", "The claim", "--agents", "10", "--rounds", "100", "--runs", "1", "--out", tb.TempDir())
	if code != 0 {
		tb.Fatalf("exit %d: %s", code, errOut)
	}
	var sums, counts [2]float64
	for _, r := range srv.Requests() {
		if r.SchemaName == "memory" {
			reflections++
			continue
		}
		m := roundHeader.FindStringSubmatch(r.LastUser())
		if m == nil {
			continue
		}
		step, _ := strconv.Atoi(m[1])
		n := 0
		for _, msg := range r.Messages {
			n += len(msg.Content)
		}
		switch {
		case step <= 20:
			sums[0], counts[0] = sums[0]+float64(n), counts[0]+1
		case step > 80:
			sums[1], counts[1] = sums[1]+float64(n), counts[1]+1
		}
	}
	return sums[0] / counts[0], sums[1] / counts[1], reflections
}

// Cumulative memory grows with an agent's own experiences (about one in
// five steps for ten agents); reflective memory holds a summary instead.
func TestDyadsMemoryPromptGrowth(t *testing.T) {
	c0, c1, cr := dyadsPromptBytes(t, "cumulative")
	r0, r1, rr := dyadsPromptBytes(t, "reflective")
	t.Logf("prompt bytes, steps 1-20 -> 81-100: cumulative %.0f -> %.0f, reflective %.0f -> %.0f (%d reflections)", c0, c1, r0, r1, rr)
	if cr != 0 || rr == 0 {
		t.Errorf("reflections: cumulative %d, reflective %d", cr, rr)
	}
	if !(c1 > c0*1.5) || !(r1 < c1) {
		t.Errorf("cumulative %.0f -> %.0f, reflective %.0f -> %.0f: want cumulative to grow and reflective to stay below it", c0, c1, r0, r1)
	}
}
