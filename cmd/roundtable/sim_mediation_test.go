package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/mediation"
)

// mediatorModel answers the mediator's requests with a statement naming
// the request, so that every draft differs, and everything else as the
// Responder does (people rank the first candidate they are shown first).
func mediatorModel(n *atomic.Int64) openaitest.Handler {
	return func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		if r.SchemaName == mediation.SchemaName {
			k := n.Add(1)
			return openaitest.JSON(map[string]string{"statement": fmt.Sprintf("We agree on calmer streets, statement %d.", k)})
		}
		if r.SchemaName == "message" {
			return openaitest.JSON(map[string]any{"to": []string{}, "text": fmt.Sprintf("I care most about point %d.", len(r.LastUser())%97)})
		}
		if r.SchemaName == "survey" {
			return openaitest.JSON(map[string]any{"reasoning": "fair enough", "values": []float64{5}})
		}
		return openaitest.Responder{}.Handle(ctx, r)
	}
}

// A headless mediation with language models in the people's seats and
// the mediator's, against the fake server, analysed by analyze: the
// mediator is asked for drafts and revisions with the opinions and
// critiques in its prompt (no names), every person ranks and endorses,
// and analyze writes the endorsement distribution, the first-choice share
// and the text movement.
func TestSimMediationWithLLMAgentsIsAnalysed(t *testing.T) {
	var n atomic.Int64
	srv := openaitest.NewServer(mediatorModel(&n))
	defer srv.Close()
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "mediation", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--question", "What should our town do about traffic?", "--agents", "3", "--drafts", "3", "--rounds", "2", "--rule", "schulze",
		"--runs", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	if got := srv.Count(openaitest.Schema(mediation.SchemaName)); got != 6 {
		t.Errorf("the mediator was asked %d times, want 3 drafts and 3 revisions", got)
	}
	for _, r := range srv.Requests() {
		if r.SchemaName != mediation.SchemaName {
			continue
		}
		if p := r.LastUser(); strings.Contains(p, "Agent ") || strings.Count(p, "- I care most about point") != 3 {
			t.Errorf("the mediator's prompt names a person or lacks their texts:\n%s", p)
		}
	}
	// The mediator's model and prompts are in the tables' provenance.
	summary, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if v := mediation.PromptVersion(); !strings.Contains(string(summary), `"template": "`+v+`"`) {
		t.Errorf("summary.json does not name the mediator's prompt version %s:\n%.2000s", v, summary)
	}
	if code, _, errOut := run(t, "", "analyze", dir); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	rows := readCSV(t, filepath.Join(dir, "analysis", "mediation_agreement.csv"))
	row := map[string]string{}
	for i, h := range rows[0] {
		row[h] = rows[1][i]
	}
	if row["statement"] != "1.0000" || row["endorsement"] != "5.0000" || row["first_choice"] == "" || row["movement_from"] != "hashed-tfidf" {
		t.Errorf("agreement row %v", row)
	}
	if m, err := strconv.ParseFloat(row["movement"], 64); err != nil || m < 0 || m > 1 {
		t.Errorf("movement %q (%v), want a cosine distance", row["movement"], err)
	}
	dist := readCSV(t, filepath.Join(dir, "analysis", "mediation_endorsement.csv"))
	col := map[string]string{}
	for i, h := range dist[0] {
		col[h] = dist[1][i]
	}
	if col["endorse/5"] != "3.0000" || col["endorse/7"] != "0.0000" {
		t.Errorf("endorsement distribution %v", col)
	}
}

// A headless mediation that names no rule or tie policy draws among tied
// statements (seeded), as its reference does, so every table ends with a
// group statement, by Schulze; an explicit --rule and --tie still rule.
func TestSimMediationDrawsTiesUnlessTold(t *testing.T) {
	share := func(args ...string) string {
		dir := t.TempDir()
		args = append([]string{"sim", "--protocol", "mediation", "--question", "What should our town do about traffic?", "--agents", "4", "--rounds", "2", "--runs", "8", "--out", dir}, args...)
		if code, _, errOut := run(t, "", args...); code != 0 {
			t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
		}
		if code, _, errOut := run(t, "", "analyze", dir); code != 0 {
			t.Fatalf("analyze: exit %d: %s", code, errOut)
		}
		rows := readCSV(t, filepath.Join(dir, "analysis", "mediation_agreement.csv"))
		for i, h := range rows[0] {
			if h == "statement" {
				return rows[1][i]
			}
		}
		t.Fatalf("no statement column in %v", rows[0])
		return ""
	}
	if got := share(); got != "1.0000" {
		t.Errorf("share of tables with a statement, no --tie: %s, want 1.0000", got)
	}
	if got := share("--rule", "majority", "--tie", "defer"); got == "1.0000" {
		t.Errorf("--rule majority --tie defer: every table has a statement; want the flags to rule")
	}
}
