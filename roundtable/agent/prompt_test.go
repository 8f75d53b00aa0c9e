package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

var update = flag.Bool("update", false, "rewrite the golden prompt files in testdata")

// TestPromptGolden pins the exact prompts of each phase, so that a wording
// change shows up in review. Run with -update to accept a change.
func TestPromptGolden(t *testing.T) {
	cases := []struct {
		name   string
		phase  roundtable.Phase
		rule   vote.Rule
		answer string
	}{
		{"message", roundtable.PhaseMessage, vote.Plurality, `{"to":[],"text":"hi"}`},
		{"proposal", roundtable.PhaseProposal, vote.Plurality, `{"reasoning":"","skip":true,"proposal":""}`},
		{"vote_rated", roundtable.PhaseVote, vote.Rated, `{"reasoning":"","abstain":true,"scores":{}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			llm := answers(c.answer)
			newAgent(llm, Options{}).Act(context.Background(), view(c.phase, c.rule))
			if len(llm.reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(llm.reqs))
			}
			golden(t, filepath.Join("testdata", c.name+".golden"), renderRequest(t, llm.reqs[0]))
		})
	}
}

func renderRequest(t *testing.T, r Request) string {
	var b strings.Builder
	var schema bytes.Buffer
	if err := json.Indent(&schema, r.Schema.JSON, "", "  "); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "=== schema %s\n%s\n", r.Schema.Name, schema.String())
	for _, m := range r.Messages {
		fmt.Fprintf(&b, "=== %s\n%s\n", m.Role, m.Content)
	}
	return b.String()
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("prompt differs from %s (run go test -update to accept):\n%s", path, got)
	}
}

func TestSystemPromptIsTheSameInEveryPhase(t *testing.T) {
	var first string
	for _, p := range []roundtable.Phase{roundtable.PhaseMessage, roundtable.PhaseProposal, roundtable.PhaseVote} {
		s := systemPrompt(view(p, vote.Majority))
		if first == "" {
			first = s
		}
		if s != first {
			t.Fatalf("system prompt of the %s phase differs; provider caches would miss", p)
		}
	}
}
