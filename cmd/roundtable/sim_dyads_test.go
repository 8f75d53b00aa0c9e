package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// simStates replays every table a sim left in dir.
func simStates(t *testing.T, dir string) []*roundtable.State {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(filepath.Join(dir, "roundtable.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ids, damaged, err := roundtable.Readable(ctx, db, nil)
	if err != nil || damaged != nil {
		t.Fatal(err, damaged)
	}
	var out []*roundtable.State
	for _, id := range ids {
		evs, err := db.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		s, err := roundtable.Replay(evs)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func simDyads(t *testing.T, dir string, args ...string) map[string]float64 {
	t.Helper()
	base := []string{"sim", "--protocol", "dyads", "--question", "The earth is round.", "--agents", "6", "--rounds", "40", "--runs", "2", "--out", dir}
	code, _, errOut := run(t, "", append(base, args...)...)
	if code != 0 {
		t.Fatalf("sim %v: exit %d: %s", args, code, errOut)
	}
	return onlyResult(t, readReport(t, dir))
}

// Without interaction nobody writes and nobody moves: the offline agents
// have no inherent bias, so B and D stay where they started.
func TestSimDyadsNoInteractionControlOffline(t *testing.T) {
	dir := t.TempDir()
	sc := simDyads(t, dir, "--control", "no-interaction")
	if sc["D_final"] != sc["D_initial"] || sc["B_final"] != sc["B_initial"] || sc["changed_agents"] != 0 {
		t.Errorf("figures %v: without interaction an offline agent keeps its belief", sc)
	}
	for _, s := range simStates(t, dir) {
		if s.Config.Protocol.Params["control"] != "no-interaction" {
			t.Errorf("params %v", s.Config.Protocol.Params)
		}
		reports := 0
		for _, r := range s.Rounds {
			if len(r.Messages) != 0 {
				t.Fatalf("round %d has messages: %+v", r.Round, r.Messages)
			}
			reports += len(r.Surveys)
		}
		if reports != 40 {
			t.Errorf("%d reports in 40 steps, want one a step", reports)
		}
	}
}

// Without role play the agents have no persona and no initial belief.
func TestSimDyadsNoRolePlayControlOffline(t *testing.T) {
	dir := t.TempDir()
	sc := simDyads(t, dir, "--control", "no-role-play")
	for _, s := range simStates(t, dir) {
		for _, p := range s.Participants {
			if p.Stance != "" || p.Background != "" {
				t.Errorf("%s has a persona: stance %q, background %q", p.ID, p.Stance, p.Background)
			}
		}
	}
	if sc["B_final"] != 0 || sc["D_final"] != 0 {
		t.Errorf("figures %v: an offline agent without a persona believes 0", sc)
	}
}

// Reflective memory offline keeps a labelled, deterministic summary: the
// belief as a stance level. It changes the dynamics of DeGroot agents.
func TestSimDyadsReflectiveMemoryOffline(t *testing.T) {
	cum, refl := t.TempDir(), t.TempDir()
	a := simDyads(t, cum, "--stances", "continuous")
	b := simDyads(t, refl, "--stances", "continuous", "--memory", "reflective")
	if a["D_final"] == b["D_final"] {
		t.Errorf("D_final %v under both memories", a["D_final"])
	}
	for _, s := range simStates(t, refl) {
		for _, r := range s.Rounds {
			for _, x := range r.Surveys {
				if !strings.HasPrefix(x.Reason, "offline reflective memory (deterministic summary): I ") {
					t.Fatalf("reason %q is not the labelled summary", x.Reason)
				}
			}
		}
	}
}

// A strong confirmation bias offline weakens the pull of distant
// beliefs, so opinions stay more diverse than without.
func TestSimDyadsConfirmationBiasOffline(t *testing.T) {
	none := simDyads(t, t.TempDir(), "--rounds", "20")
	strong := simDyads(t, t.TempDir(), "--rounds", "20", "--confirmation-bias", "strong")
	if !(strong["D_final"] > none["D_final"]) {
		t.Errorf("D_final: no bias %v, strong bias %v", none["D_final"], strong["D_final"])
	}
}

// Conditions run into one directory stay apart, and analyze reports B
// and D for each, the controls included.
func TestAnalyzeDyadsConditions(t *testing.T) {
	dir := t.TempDir()
	conds := [][]string{nil, {"--control", "no-interaction"}, {"--control", "no-role-play"}, {"--memory", "reflective"},
		{"--confirmation-bias", "weak"}, {"--stances", "skewed"}}
	for _, c := range conds {
		simDyads(t, dir, c...)
	}
	if code, _, errOut := run(t, "", "analyze", dir); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	rows := readCSV(t, filepath.Join(dir, "analysis", "dyads_bias_diversity.csv"))
	if len(rows) != 1+len(conds) {
		t.Fatalf("%d rows for %d conditions: %v", len(rows)-1, len(conds), rows)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	seen := map[string]bool{}
	for _, r := range rows[1:] {
		if r[col["tables"]] != "2" {
			t.Errorf("condition %s has %s tables", r[0], r[col["tables"]])
		}
		seen[r[col["control"]]+"/"+r[col["memory"]]+"/"+r[col["confirmation_bias"]]+"/"+r[col["stances"]]] = true
	}
	for _, want := range []string{"none/cumulative/none/uniform", "no-interaction/cumulative/none/uniform", "no-role-play/cumulative/none/uniform",
		"none/reflective/none/uniform", "none/cumulative/weak/uniform", "none/cumulative/none/skewed"} {
		if !seen[want] {
			t.Errorf("no row for %s in %v", want, rows)
		}
	}
	for _, f := range []string{"dyads_bias_diversity.png", "dyads_bias_diversity.svg", "dyads_bias_trajectories.svg",
		"dyads_agents_dyads-degroot-ctl_no-interaction-majority-k6-r40-s1.svg"} {
		if _, err := os.Stat(filepath.Join(dir, "analysis", f)); err != nil {
			t.Errorf("analyze wrote no %s: %v", f, err)
		}
	}
}

// llmDyads runs a dyads sim with language-model agents against the fake
// server and returns its requests.
func llmDyads(t *testing.T, args ...string) []*openaitest.Request {
	t.Helper()
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	base := []string{"sim", "--protocol", "dyads", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--agents", "3", "--rounds", "6", "--runs", "1", "--stances", "2,-2,0", "--out", t.TempDir()}
	if !strings.Contains(strings.Join(args, " "), "--claim") {
		base = append(base, "--question", "The claim")
	}
	code, _, errOut := run(t, "", append(base, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	return srv.Requests()
}

func countSchema(reqs []*openaitest.Request, name string) int {
	n := 0
	for _, r := range reqs {
		if r.SchemaName == name {
			n++
		}
	}
	return n
}

func TestSimDyadsLLMControlsChangeThePrompts(t *testing.T) {
	t.Run("interaction", func(t *testing.T) {
		reqs := llmDyads(t)
		if countSchema(reqs, "message") != 6 || countSchema(reqs, "survey") != 6 {
			t.Errorf("%d posts, %d reports in 6 steps", countSchema(reqs, "message"), countSchema(reqs, "survey"))
		}
		for _, r := range reqs {
			if r.SchemaName == "message" && !strings.Contains(r.LastUser(), "It should reflect your honest belief") {
				t.Errorf("a post prompt without the paper's instruction:\n%s", r.LastUser())
			}
		}
		// Cumulative memory: a report follows a post written to the agent.
		for _, r := range reqs {
			if r.SchemaName == "survey" && !strings.Contains(r.LastUser(), "wrote to you") {
				t.Errorf("a report without the post it follows:\n%s", r.LastUser())
			}
		}
	})
	t.Run("no-interaction", func(t *testing.T) {
		reqs := llmDyads(t, "--control", "no-interaction")
		if countSchema(reqs, "message") != 0 || countSchema(reqs, "survey") != 6 {
			t.Errorf("%d posts, %d reports", countSchema(reqs, "message"), countSchema(reqs, "survey"))
		}
		for _, want := range []string{"Role play this person.", "-year-old", "politically", "Your opinion on the statement \"The claim\": you "} {
			if !strings.Contains(reqs[0].System(), want) {
				t.Errorf("the persona lacks %q:\n%s", want, reqs[0].System())
			}
		}
		if strings.Contains(reqs[0].System(), "cannot look anything up") {
			t.Error("the closed-world restriction without --closed-world")
		}
	})
	t.Run("no-role-play", func(t *testing.T) {
		for _, r := range llmDyads(t, "--control", "no-role-play") {
			if s := r.System(); strings.Contains(s, "Your opinion on the statement") || strings.Contains(s, "Stance:") || strings.Contains(s, "Role play") {
				t.Fatalf("a persona in the no-role-play control:\n%s", s)
			}
		}
	})
	t.Run("reflective", func(t *testing.T) {
		reqs := llmDyads(t, "--memory", "reflective")
		if countSchema(reqs, "memory") == 0 {
			t.Fatal("no reflection was asked")
		}
		for _, r := range reqs {
			if r.SchemaName == "memory" && !strings.Contains(r.LastUser(), "Reflect on this experience") {
				t.Errorf("reflection prompt:\n%s", r.LastUser())
			}
		}
		later := 0
		for _, r := range reqs {
			if r.SchemaName != "memory" && strings.Contains(r.LastUser(), "Your reflection on your experiences:") {
				later++
			}
		}
		if later == 0 {
			t.Error("no prompt carries the reflection")
		}
	})
	t.Run("framing", func(t *testing.T) {
		fal := llmDyads(t, "--claim", "flat-earth", "--framing", "false")
		tru := llmDyads(t, "--claim", "flat-earth", "--framing", "true")
		if !strings.Contains(fal[0].System(), "Theory XYZ claims that the Earth is flat.") ||
			!strings.Contains(tru[0].System(), "Theory XYZ claims that the Earth is an irregularly shaped ellipsoid rather than flat.") {
			t.Errorf("framings:\n%s\n---\n%s", fal[0].System(), tru[0].System())
		}
	})
	t.Run("closed-world", func(t *testing.T) {
		if s := llmDyads(t, "--closed-world")[0].System(); !strings.Contains(s, "cannot look anything up") {
			t.Errorf("no closed-world restriction:\n%s", s)
		}
	})
	t.Run("bias", func(t *testing.T) {
		weak := llmDyads(t, "--confirmation-bias", "weak")
		if !strings.Contains(weak[0].System(), "more weight to what agrees with your current belief") {
			t.Errorf("the weak bias is not in the prompt:\n%s", weak[0].System())
		}
	})
}

func TestSimDyadsRefusesBadConditions(t *testing.T) {
	cases := map[string][]string{
		"--control":           {"--control", "silence"},
		"--memory":            {"--memory", "photographic"},
		"--framing":           {"--framing", "maybe"},
		"--claim":             {"--claim", "the-moon-is-cheese"},
		"--confirmation-bias": {"--control", "no-role-play", "--confirmation-bias", "weak"},
	}
	for flag, args := range cases {
		t.Run(flag, func(t *testing.T) {
			code, _, errOut := run(t, "", append([]string{"sim", "--protocol", "dyads", "--question", "x", "--out", t.TempDir()}, args...)...)
			if code != 2 || !strings.Contains(errOut, flag) {
				t.Errorf("exit %d, stderr %q; want 2 naming %s", code, errOut, flag)
			}
		})
	}
	code, _, errOut := run(t, "", "sim", "--protocol", "chatroom", "--question", "x", "--memory", "reflective", "--out", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "dyads") {
		t.Errorf("memory in a chatroom: exit %d, %q", code, errOut)
	}
}

// A [[table]] preset takes the no-interaction control; what belongs to
// agents is refused naming the key.
func TestTablePresetDyadsControl(t *testing.T) {
	_, tc := firstPreset(t, "[[table]]\nname = \"d\"\nprotocol = \"dyads\"\nquestion = \"q\"\ncontrol = \"no-interaction\"\n")
	if st := tc.Protocol.Round; len(st) != 1 || st[0].Phase != roundtable.PhaseSurvey || tc.Protocol.Params["control"] != "no-interaction" {
		t.Errorf("schedule %+v params %v", st, tc.Protocol.Params)
	}
	bad := writeConfig(t, "[[table]]\nname = \"d\"\nprotocol = \"dyads\"\nquestion = \"q\"\nmemory = \"reflective\"\n")
	if _, err := LoadConfig(bad); err == nil || !strings.Contains(err.Error(), "table[0].memory") {
		t.Errorf("memory in a [[table]]: %v", err)
	}
}

// A listener reports its belief in words and the opinion classifier maps
// them to -2..2 (Opinion dynamics, appendix I): the fake listener says it
// leans toward the claim, the classifier reads that as 1, and 1 is the
// recorded belief, the words kept as its reason. --belief-report self
// asks for the number itself (here 2): no classifier is asked.
func TestSimDyadsVerbalReportsAreClassified(t *testing.T) {
	handler := func(ctx context.Context, r *openaitest.Request) openaitest.Reply {
		switch r.SchemaName {
		case "survey":
			if strings.Contains(string(r.Schema), `"belief"`) {
				return openaitest.JSON(map[string]any{"reasoning": "The post was convincing.", "belief": "I now lean toward the claim."})
			}
			return openaitest.JSON(map[string]any{"reasoning": "sure", "values": []float64{2}})
		case "opinion_classifier":
			if !strings.Contains(r.LastUser(), "I now lean toward the claim.") || strings.Contains(r.System(), "Role play") {
				return openaitest.Status(400, "the classifier must see the words and no persona")
			}
			return openaitest.JSON(map[string]any{"value": 1})
		}
		return openaitest.Responder{}.Handle(ctx, r)
	}
	for mode, want := range map[string]float64{"verbal": 1, "self": 2} {
		t.Run(mode, func(t *testing.T) {
			srv := openaitest.NewServer(handler)
			defer srv.Close()
			dir := t.TempDir()
			code, _, errOut := run(t, "", "sim", "--protocol", "dyads", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
				"--belief-report", mode, "--question", "The claim", "--agents", "3", "--rounds", "4", "--runs", "1", "--stances", "2,-2,0", "--out", dir)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			classified := srv.Count(openaitest.Schema("opinion_classifier"))
			if (mode == "verbal") != (classified == 4) {
				t.Errorf("%d classifier questions for 4 reports", classified)
			}
			for _, s := range simStates(t, dir) {
				for _, r := range s.Rounds {
					for _, a := range r.Surveys {
						if a.Values[0] != want || (mode == "verbal" && !strings.Contains(a.Reason, "I now lean toward the claim.")) {
							t.Errorf("round %d: %v %q, want %v", r.Round, a.Values, a.Reason, want)
						}
					}
				}
			}
		})
	}
}

// Dyads count unwarranted changes as the chatroom does: every post of
// every agent classified against its starting stance. A judge reads every
// post as slightly agreeing with the complement (-1): in an echo chamber
// at 2 every post is a change toward the complement's pole.
func TestAnalyzeDyadsClassifiesEveryPost(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := run(t, "", "sim", "--protocol", "dyads", "--stances", "echo:2", "--question", "The claim", "--agents", "3",
		"--rounds", "5", "--runs", "1", "--out", dir); code != 0 {
		t.Fatalf("sim: exit %d: %s", code, errOut)
	}
	judge := scriptedStanceJudge()
	defer judge.Close()
	if code, _, errOut := run(t, "", "analyze", dir, "--stance", "llm", "--samples", "1", "--llm-base-url", judge.URL(), "--llm-model", "judge"); code != 0 {
		t.Fatalf("analyze: exit %d: %s", code, errOut)
	}
	rows := readCSV(t, filepath.Join(dir, "analysis", "dyads_changes.csv"))
	if len(rows) != 2 {
		t.Fatalf("rows %v", rows)
	}
	r := map[string]string{}
	for i, h := range rows[0] {
		r[h] = rows[1][i]
	}
	// 5 steps, one post each.
	if r["changes"] != "5.0000" || r["changes_toward_complement"] != "5.0000" || r["classified_messages"] != "5.0000" || r["agents_toward_statement"] != "0.0000" {
		t.Errorf("dyads changes %v", r)
	}
	m := readCSV(t, filepath.Join(dir, "analysis", "dyads_matrix.csv"))
	for _, row := range m[1:] {
		if row[2] == "2" && row[4] == "-1" && row[6] != "5" {
			t.Errorf("matrix 2 -> -1: %v, want 5", row)
		}
	}
}
