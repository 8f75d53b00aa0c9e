package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
	"github.com/roundtable-ai/roundtable/store"
)

// TestSimRecommendationBaselineNeedsNoModel: the model-free agents play
// every rule on data with every quirk of the real files; each table's log
// says which user, movie and true rating it was about, and summary.json
// has the per-round coverage and the unit of every metric.
func TestSimRecommendationBaselineNeedsNoModel(t *testing.T) {
	data, out := t.TempDir(), t.TempDir()
	if err := recommend.WriteSynthetic(data, 60, 300, 5); err != nil {
		t.Fatal(err)
	}
	code, stdout, errOut := run(t, "", "sim", "--task", "recommendation", "--agent", "baseline", "--data", data,
		"--rule", "all", "--rounds", "3", "--runs", "4", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Recommendation (MovieLens)", "FAILED ACTIONS", "0/", "tables with a decision, copeland, by round:", "always 4: MAE", "collaborative filtering"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	var rep struct {
		Units map[string]string `json:"units"`
		Rules map[string]struct {
			Summary struct {
				Series map[string][]struct{ Mean float64 } `json:"series"`
			} `json:"summary"`
		} `json:"rules"`
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if cov := rep.Rules["plurality"].Summary.Series["coverage"]; len(cov) != 3 || cov[2].Mean < cov[0].Mean {
		t.Errorf("coverage %v, want 3 non-decreasing rounds", cov)
	}
	for _, k := range []string{"coverage", "abs_error", "AUC@10", "rigidity"} {
		if rep.Units[k] == "" {
			t.Errorf("summary.json gives no unit for %s", k)
		}
	}
	checkGroundTruthInLog(t, filepath.Join(out, "roundtable.db"), data)
}

// checkGroundTruthInLog re-reads a table's case from its log alone and
// checks it against the data.
func checkGroundTruthInLog(t *testing.T, path, data string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(path, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	events, err := db.Load(ctx, "recommendation-baseline-plurality-k3-r3-s1-0001")
	if err != nil {
		t.Fatal(err)
	}
	created, ok := events[0].Data.(roundtable.TableCreated)
	if !ok {
		t.Fatalf("first event is %T", events[0].Data)
	}
	c, err := recommend.CaseOf(created.Config.Task)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := recommend.Load(data)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range ds.Test {
		found = found || (r.User == c.User && r.Movie == c.Movie && r.Rating == c.Rating)
	}
	if !found {
		t.Errorf("the log's case %+v is not a rating of u1.test", c)
	}
	if created.Config.Task.Public().Private != nil {
		t.Error("Public keeps the private ground truth")
	}
}

func TestTallyQuorumAndCondorcetRules(t *testing.T) {
	profile := `{"participants": 3, "candidates": ["A","B","C"], "ballots": [{"voter":"v1","ranking":["A","B","C"]}, {"voter":"v2","ranking":["B","A","C"]}, {"voter":"v3","ranking":["A","C","B"]}]}`
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--rule", "schulze"}, `"winner": "A"`},
		{[]string{"--rule", "copeland"}, `"winner": "A"`},
		{[]string{"--rule", "copeland", "--quorum", "4"}, "quorum not met: 3 of the 4 ballots required were cast"},
	} {
		code, out, errOut := run(t, profile, append([]string{"tally"}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("tally %v: exit %d %s\n%s, want %q", c.args, code, errOut, out, c.want)
		}
	}
	if code, _, errOut := run(t, profile, "tally", "--rule", "plurality", "--quorum", "-1"); code != 2 || !strings.Contains(errOut, "--quorum") {
		t.Errorf("negative quorum: exit %d %q", code, errOut)
	}
}

func TestSimQuorumAboveTheTableIsRefused(t *testing.T) {
	code, _, errOut := run(t, "", "sim", "--quorum", "4", "--runs", "1", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "--quorum: 4 is out of range 0..3") {
		t.Errorf("exit %d %q", code, errOut)
	}
}

// TestSimQuorumWithholdsDecisions: one agent's ballots always fail, so a
// quorum of all three never decides, while plurality without it does.
func TestSimQuorumWithholdsDecisions(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Inject(openaitest.Responder{}.Handle,
		openaitest.Fault{Match: openaitest.All(openaitest.Persona("Agent 3"), openaitest.Schema("vote_plurality")), Times: -1,
			Reply: openaitest.Always(openaitest.Truncated("{"))}))
	defer srv.Close()
	for _, c := range []struct{ quorum, want string }{{"0", "100% 100%"}, {"3", "0% 0%"}} {
		code, out, errOut := run(t, "", "--config", endpointConfig(t, srv, ""), "sim", "--task", "recommendation", "--agent", "llm",
			"--data", syntheticData(t), "--rule", "plurality", "--rounds", "2", "--runs", "1", "--quorum", c.quorum, "--out", t.TempDir())
		if code != 0 || !strings.Contains(out, "tables with a decision, plurality, by round: "+c.want) {
			t.Errorf("quorum %s: exit %d %s\n%s\nwant coverage %s", c.quorum, code, errOut, out, c.want)
		}
	}
}

func syntheticData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := recommend.WriteSynthetic(dir, 30, 40, 2); err != nil {
		t.Fatal(err)
	}
	return dir
}
