package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report/reporttest"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

// itemDir writes three résumés, one file per item.
func itemDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	docs := map[string]string{
		"Ann.txt": "Ann led the data platform team at a recycling company for four years. She cut cloud costs by a third while scaling the Kafka pipelines. She mentors two junior engineers.",
		"Ben.txt": "Ben is a financial analyst who moved into data engineering last year. He built the monthly reporting pipeline in SQL and Python. He managed the budget for analytics tools.",
		"Cy.md":   "Cy ran operations at a sorting plant and automated the shift schedules. Cy maintained sensor data collection on the production line. Cy knows little about cloud platforms.",
	}
	for name, text := range docs {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// col returns the named column of a CSV's data rows.
func col(t *testing.T, rows [][]string, name string) []string {
	t.Helper()
	for i, h := range rows[0] {
		if h == name {
			var out []string
			for _, r := range rows[1:] {
				out = append(out, r[i])
			}
			return out
		}
	}
	t.Fatalf("no column %s in %v", name, rows[0])
	return nil
}

func TestSimPanelGridWritesMentalModelsQualityAndBias(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "", "sim", "--protocol", "panel", "--item-dir", itemDir(t), "--roles", "CFO,VP of Engineering,Plant Manager",
		"--alpha", "0.3,0.7", "--tolerance", "1e-3,1e-5", "--question", "Who should we hire as data engineer?",
		"--agents", "3", "--rounds", "8", "--runs", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep := readReport(t, dir)
	checkUnits(t, rep)
	if len(rep.Rules) != 4 || !strings.Contains(out, "grid cell a0.3-t0.001") {
		t.Fatalf("results %v; output:\n%s", keysOf(rep.Rules), out)
	}
	for key, r := range rep.Rules {
		sc := r.Summary.Scalars
		for _, k := range []string{"nuance", "nuance/Ann", "drift", "drift/CFO", "defensibility", "supported"} {
			if _, ok := sc[k]; !ok {
				t.Errorf("%s: no %s in summary.json", key, k)
			}
		}
		if d := sc["defensibility"].Mean; !(d > 0 && d <= 1) {
			t.Errorf("%s: defensibility %v: the judges cite the résumés", key, d)
		}
	}
	states := simStates(t, dir)
	s := states[0]
	if panel.Docs(s)["Cy"] == "" || s.Participants[0].Name != "CFO" {
		t.Errorf("documents %v, seats %v", panel.Docs(s), s.Participants)
	}
	models := panel.Models(s)
	if len(models["CFO"]) != len(s.Rounds) || models["CFO"][0].Source != panel.SourceVocabulary {
		t.Errorf("CFO stated %d models in %d rounds: %+v", len(models["CFO"]), len(s.Rounds), models["CFO"])
	}

	code, _, errOut = run(t, "", "analyze", dir)
	if code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	an := filepath.Join(dir, "analysis")
	for _, f := range []string{"panel_quality.csv", "panel_platitude.csv", "panel_nuance_drift.csv", "panel_bias.csv", "panel_bias_points.csv",
		"panel_bias_positive.csv", "panel_bias_a0.3-t0.001.png", "panel_bias_a0.7-t1e-05.svg", "panel_bias_positive.png", "panel_bias_positive.svg", "panel_bias_negative.png", "panel_bias_negative.svg"} {
		if st, err := os.Stat(filepath.Join(an, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	panelFiles, err := filepath.Glob(filepath.Join(an, "panel_*"))
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckFiles(t, panelFiles)
	q := readCSV(t, filepath.Join(an, "panel_quality.csv"))
	if len(q) != 5 {
		t.Fatalf("panel_quality.csv has %d rows, want a header and 4 cells", len(q))
	}
	for _, p := range col(t, q, "platitude") {
		if v, err := strconv.ParseFloat(p, 64); err != nil || v <= 0 || v > 1 {
			t.Errorf("platitude %q: want a cosine in (0, 1] over two runs", p)
		}
	}
	b := readCSV(t, filepath.Join(an, "panel_bias.csv"))
	alphas := strings.Join(col(t, b, "alpha"), ",")
	if alphas != "0.3000,0.3000,0.7000,0.7000" {
		t.Errorf("bias rows' alphas %s", alphas)
	}
	for _, l := range col(t, b, "bias") {
		if l != "positivity" && l != "negativity" && l != "saliency" {
			t.Errorf("bias label %q", l)
		}
	}
}

func TestSimPanelRefusesBadGridRolesAndDocuments(t *testing.T) {
	docs := itemDir(t)
	cases := map[string][]string{
		"--alpha":       {"--alpha", "0.5,1.5"},
		"--tolerance":   {"--tolerance", "1e-3,0"},
		"--roles":       {"--roles", "CFO,CTO"},
		"--item-dir":    {"--item-dir", docs, "--items", "Ann,Dee"},
		"--roles dyads": {"--protocol", "dyads", "--roles", "CFO,CTO,COO"},
	}
	for flag, args := range cases {
		t.Run(flag, func(t *testing.T) {
			code, _, errOut := run(t, "", append([]string{"sim", "--protocol", "panel", "--question", "Hire", "--agents", "3", "--out", t.TempDir()}, args...)...)
			if code != 2 || !strings.Contains(errOut, strings.Fields(flag)[0]) {
				t.Errorf("exit %d, stderr %q; want 2 naming %s", code, errOut, flag)
			}
		})
	}
}

// modelServer is the fake endpoint playing judges whose restated models
// change every round and whose sentiments keep moving.
func modelServer() *openaitest.Server {
	var mu sync.Mutex
	calls := map[string]int{}
	next := func(key string) int {
		mu.Lock()
		defer mu.Unlock()
		calls[key]++
		return calls[key]
	}
	tools := []string{"Kafka", "Spark", "Airflow", "Postgres", "Terraform"}
	return openaitest.NewServer(func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		who := r.Persona()
		switch r.SchemaName {
		case "mental_model":
			n := next("model " + who + r.System())
			return openaitest.JSON(map[string]any{"description": who + ", ten years in the trade.", "priorities": "Hire someone who lasts.",
				"criteria": []string{"pipeline experience", "budget care", "knowledge of " + tools[n%len(tools)]}})
		case "message":
			return openaitest.JSON(map[string]any{"to": []string{}, "text": "Ann scaled the Kafka pipelines. Ben built the reporting pipeline in SQL."})
		case "survey":
			n := float64(next("survey " + who + r.System()))
			return openaitest.JSON(map[string]any{"reasoning": "so", "values": []float64{0.5 / n, -0.5 / n}})
		}
		return openaitest.Responder{}.Handle(ctx, r)
	})
}

func TestSimPanelLLMJudgesStateAndRestateMentalModels(t *testing.T) {
	srv := modelServer()
	defer srv.Close()
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "panel", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--items", "Ann,Ben", "--item-dir", itemDir(t), "--question", "Hire a data engineer", "--agents", "3", "--rounds", "3", "--runs", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := srv.Count(openaitest.Schema("mental_model")); n != 3*3*2 {
		t.Errorf("%d mental_model requests, want one per judge, round and run (18)", n)
	}
	if srv.Count(openaitest.All(openaitest.Schema("mental_model"), openaitest.Contains("Your mental model of self so far"))) != 2*3*2 {
		t.Error("rounds 2 and 3 do not show the judge its model to restate")
	}
	if srv.Count(openaitest.All(openaitest.Schema("message"), openaitest.Contains("judge by it"))) != 3*3*2 {
		t.Error("the message prompts do not show the judge its model")
	}
	rep := readReport(t, dir)
	checkUnits(t, rep)
	for _, r := range rep.Rules {
		if r.Summary.Failures != 0 {
			t.Errorf("%d failed actions", r.Summary.Failures)
		}
		if d := r.Summary.Scalars["drift"].Mean; !(d > 0 && d < 1) {
			t.Errorf("drift %v: each restatement changed one criterion", d)
		}
	}
	for _, s := range simStates(t, dir) {
		if ms := panel.Models(s)["VP of Engineering"]; len(ms) != 3 || ms[0].Source != "llm" {
			t.Errorf("%s: VP of Engineering's models %+v", s.ID, ms)
		}
	}
}

// A judge whose model cannot be had (an invalid answer twice) still
// speaks: the message goes on without a model and nothing fails.
func TestSimPanelLLMJudgeWithoutAModelStillSpeaks(t *testing.T) {
	srv := openaitest.NewServer(func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		if r.SchemaName == "mental_model" {
			return openaitest.JSON(map[string]any{"description": "", "priorities": "", "criteria": []string{}})
		}
		return openaitest.Responder{}.Handle(ctx, r)
	})
	defer srv.Close()
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "panel", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--items", "Ann,Ben", "--question", "Hire a data engineer", "--agents", "2", "--rounds", "2", "--runs", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if srv.Count(openaitest.All(openaitest.Schema("mental_model"), openaitest.Repair)) == 0 {
		t.Error("the invalid model was not asked again with the error")
	}
	for _, r := range readReport(t, dir).Rules {
		if r.Summary.Failures != 0 {
			t.Errorf("%d failed actions", r.Summary.Failures)
		}
	}
	s := simStates(t, dir)[0]
	if len(s.Rounds[0].Messages) != 2 || len(panel.Models(s)) != 0 {
		t.Errorf("round 1: %d messages, models %v", len(s.Rounds[0].Messages), panel.Models(s))
	}
}

// An α grid with language-model judges: the model reports S_O (0.8, -0.4
// in round 1, then 0.2, 0.6) and each cell records S_i(t) with its alpha.
func TestSimPanelLLMAlphaGridRecordsTheUpdatePerCell(t *testing.T) {
	srv := openaitest.NewServer(func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		switch {
		case r.SchemaName == "survey" && strings.Contains(r.LastUser(), "## Round 1 of"):
			return openaitest.JSON(map[string]any{"reasoning": "first look", "values": []float64{0.8, -0.4}})
		case r.SchemaName == "survey":
			return openaitest.JSON(map[string]any{"reasoning": "second look", "values": []float64{0.2, 0.6}})
		}
		return openaitest.Responder{}.Handle(ctx, r)
	})
	defer srv.Close()
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "panel", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--items", "Ann,Ben", "--question", "Hire a data engineer", "--alpha", "0.3,0.7", "--agents", "2", "--rounds", "2", "--runs", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// By hand: 0.3*0.2 + 0.7*0.8 = 0.62, 0.3*0.6 + 0.7*(-0.4) = -0.10;
	// 0.7*0.2 + 0.3*0.8 = 0.38, 0.7*0.6 + 0.3*(-0.4) = 0.30.
	want := map[string][]float64{"0.3": {0.62, -0.10}, "0.7": {0.38, 0.30}}
	seen := map[string]int{}
	for _, s := range simStates(t, dir) {
		alpha := s.Config.Protocol.Params["alpha"]
		if len(s.Rounds) != 2 {
			t.Fatalf("%s: %d rounds, want 2", s.ID, len(s.Rounds))
		}
		for _, a := range s.Rounds[0].Surveys {
			checkNear(t, s.ID+" round 1 "+a.By, a.Values, []float64{0.8, -0.4})
		}
		for _, a := range s.Rounds[1].Surveys {
			checkNear(t, s.ID+" round 2 "+a.By, a.Values, want[alpha])
			if so, ok := agent.ObservedSentiment(a.Reason); !ok || len(so) != 2 || so[0] != 0.2 || so[1] != 0.6 {
				t.Errorf("%s: reason %q does not keep S_O 0.2 0.6", s.ID, a.Reason)
			}
			seen[alpha]++
		}
	}
	if seen["0.3"] != 2 || seen["0.7"] != 2 {
		t.Errorf("round-2 answers per alpha %v, want 2 in each of 0.3 and 0.7", seen)
	}
}

func checkNear(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %v, want %v", what, got, want)
		return
	}
	for i := range want {
		if d := got[i] - want[i]; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: %v, want %v", what, got, want)
			return
		}
	}
}

// The temperature is the grid's third axis (Sentimental Agents varies it
// with α and tolerance): each cell's judges ask at its temperature, the
// table records it, and analyze's bias rows carry it with each fit's R².
func TestSimPanelTemperatureAxis(t *testing.T) {
	srv := modelServer()
	defer srv.Close()
	dir := t.TempDir()
	code, out, errOut := run(t, "", "sim", "--protocol", "panel", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--items", "Ann,Ben", "--question", "Hire a data engineer", "--temperature", "0.7,1.5", "--agents", "2", "--rounds", "3", "--runs", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "a0.5-t1e-05-T0.7") || !strings.Contains(out, "a0.5-t1e-05-T1.5") {
		t.Errorf("cells not named by temperature:\n%s", out)
	}
	temps := map[float64]int{}
	for _, r := range srv.Requests() {
		if r.Temperature == nil {
			t.Fatalf("request %d without the cell's temperature", r.N)
		}
		temps[*r.Temperature]++
	}
	if len(temps) != 2 || temps[0.7] == 0 || temps[0.7] != temps[1.5] {
		t.Errorf("requests by temperature %v, want as many at 0.7 as at 1.5", temps)
	}
	if code, _, errOut := run(t, "", "analyze", dir); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	b := readCSV(t, filepath.Join(dir, "analysis", "panel_bias.csv"))
	if got := strings.Join(col(t, b, "temperature"), ","); got != "0.7,1.5" {
		t.Errorf("bias rows' temperatures %s", got)
	}
	for _, r2 := range append(col(t, b, "r2_positive"), col(t, b, "r2_negative")...) {
		if v, err := strconv.ParseFloat(r2, 64); r2 != "NaN" && (err != nil || v > 1) {
			t.Errorf("R² %q", r2)
		}
	}
	code, _, errOut = run(t, "", "sim", "--protocol", "panel", "--question", "Hire", "--temperature", "0.7", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "--temperature") {
		t.Errorf("offline judges with a temperature: exit %d, %s", code, errOut)
	}
}

// With a model's embeddings (analyze --embedding llm), the panel's drift,
// defensibility and platitude compare whole texts by the endpoint's
// /v1/embeddings: the judges' mental models and the résumés' sentences
// are asked for, and panel_quality.csv names the model.
func TestAnalyzePanelQualityWithModelEmbeddings(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "panel", "--item-dir", itemDir(t), "--roles", "CFO,VP of Engineering",
		"--question", "Who should we hire?", "--agents", "2", "--rounds", "3", "--runs", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	if code, _, errOut := run(t, "", "analyze", dir, "--embedding", "llm", "--embedding-model", "emb-1", "--llm-base-url", srv.URL(), "--llm-model", "m"); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	asked := map[string]bool{}
	for _, r := range srv.EmbedRequests() {
		for _, in := range r.Input {
			asked[in] = true
		}
	}
	if !asked["Ann led the data platform team at a recycling company for four years."] {
		t.Error("the résumé's sentences were not embedded by the model")
	}
	mentalModel := false
	for in := range asked {
		mentalModel = mentalModel || strings.Contains(in, "CFO") || strings.Contains(in, "budget")
	}
	if !mentalModel {
		t.Error("no mental model was embedded")
	}
	q := readCSV(t, filepath.Join(dir, "analysis", "panel_quality.csv"))
	for _, d := range col(t, q, "defensibility") {
		if v, err := strconv.ParseFloat(d, 64); err != nil || !(v > 0 && v <= 1) {
			t.Errorf("defensibility %q by the model's embeddings", d)
		}
	}
	idx, _ := os.ReadFile(filepath.Join(dir, "analysis", "index.md"))
	if !strings.Contains(string(idx), "`emb-1` embeddings of the whole texts") {
		t.Error("index.md does not name the model that compared the panel's texts")
	}
}
