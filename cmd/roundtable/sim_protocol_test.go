package main

import (
	"math"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
)

func onlyResult(t *testing.T, rep experiment.Report) map[string]float64 {
	t.Helper()
	if len(rep.Rules) != 1 {
		t.Fatalf("%d results", len(rep.Rules))
	}
	out := map[string]float64{}
	for _, r := range rep.Rules {
		for k, s := range r.Summary.Scalars {
			out[k] = s.Mean
		}
	}
	return out
}

func TestSimDyadsDeGrootPullsOpinionsTogether(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "", "sim", "--protocol", "dyads", "--question", "The earth is round.", "--agents", "6",
		"--rounds", "60", "--runs", "3", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep := readReport(t, dir)
	sc := onlyResult(t, rep)
	if rep.Protocol != "dyads" || rep.Agent != "degroot" || rep.Units["D_final"] == "" {
		t.Errorf("report: protocol %q agent %q units %v", rep.Protocol, rep.Agent, rep.Units)
	}
	if !(sc["D_final"] < sc["D_initial"]/3) {
		t.Errorf("D %v -> %v: DeGroot should pull opinions together", sc["D_initial"], sc["D_final"])
	}
	// The uniform start of 6 seats: one per level and the extra at 0,
	// (-2, -1, 0, 0, 1, 2), in every run: D = sqrt(10/5) with n − 1.
	if math.Abs(sc["D_initial"]-math.Sqrt2) > 1e-9 {
		t.Errorf("D_initial %v, want sqrt(2)", sc["D_initial"])
	}
	if !strings.Contains(out, "D_final") || !strings.Contains(out, "sample standard deviation") {
		t.Errorf("output:\n%s", out)
	}
	for _, r := range rep.Rules {
		if n := len(r.Summary.Series["B"]); n != 60 {
			t.Errorf("B trajectory has %d points, want 60", n)
		}
	}
	checkUnits(t, rep)
}

// checkUnits wants a unit in summary.json for every figure of a run.
func checkUnits(t *testing.T, rep experiment.Report) {
	t.Helper()
	for _, r := range rep.Rules {
		for _, m := range []map[string]bool{keysOf(r.Summary.Scalars), keysOf(r.Summary.Series)} {
			for k := range m {
				if experiment.UnitOf(rep.Units, k) == "" {
					t.Errorf("summary.json gives no unit for %s", k)
				}
			}
		}
	}
}

func keysOf[V any](m map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}

// Deffuant keeps the mean (both move by the same amount toward each
// other) up to the 4 decimals a belief is written with.
func TestSimDyadsDeffuantKeepsTheMean(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "dyads", "--agent", "deffuant", "--stances", "continuous",
		"--question", "The earth is round.", "--agents", "6", "--rounds", "40", "--runs", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	sc := onlyResult(t, readReport(t, dir))
	if math.Abs(sc["B_final"]-sc["B_initial"]) > 1e-3 {
		t.Errorf("B %v -> %v", sc["B_initial"], sc["B_final"])
	}
	if sc["changed_agents"] == 0 {
		t.Error("nobody moved")
	}
}

func TestSimChatroomPersonasKeepTheirStance(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := run(t, "", "sim", "--protocol", "chatroom", "--stances", "echo:strongly agree",
		"--question", "Taxes on the rich should rise.", "--agents", "4", "--rounds", "10", "--runs", "3", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	sc := onlyResult(t, readReport(t, dir))
	if sc["chat_changed"] != 0 || sc["messages"] != 10 || sc["private_messages"] != 3 {
		t.Errorf("figures %v", sc)
	}
	checkUnits(t, readReport(t, dir))
	if !strings.Contains(out, "chatroom protocol") {
		t.Errorf("output:\n%s", out)
	}
}

func TestSimPanelEvaluatorsRankTheItems(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := run(t, "", "sim", "--protocol", "panel", "--items", "Ann,Ben,Cy", "--tolerance", "0.001",
		"--question", "Hire a data engineer", "--agents", "3", "--rounds", "30", "--runs", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	rep := readReport(t, dir)
	checkUnits(t, rep)
	sc := onlyResult(t, rep)
	if sc["converged"] != 1 || sc["rounds"] >= 30 {
		t.Errorf("converged %v after %v rounds", sc["converged"], sc["rounds"])
	}
	// Three judges, three items: Borda hands out 3*(3+2+1) = 18 points.
	if total := sc["borda/Ann"] + sc["borda/Ben"] + sc["borda/Cy"]; math.Abs(total-18) > 1e-9 {
		t.Errorf("Borda points sum to %v, want 18", total)
	}
}

func TestSimProtocolsWithLLMAgents(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	for _, args := range [][]string{
		{"--protocol", "dyads", "--rounds", "4"},
		{"--protocol", "chatroom", "--rounds", "3"},
		{"--protocol", "questionnaire", "--rounds", "1"},
		{"--protocol", "dyads", "--rounds", "4", "--control", "no-interaction", "--memory", "reflective"},
		{"--protocol", "panel", "--items", "Ann,Ben", "--rounds", "2"},
	} {
		t.Run(args[1], func(t *testing.T) {
			before := srv.Count(openaitest.Schema("survey"))
			dir := t.TempDir()
			code, _, errOut := run(t, "", append([]string{"sim", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
				"--question", "The claim", "--agents", "3", "--runs", "1", "--out", dir}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if srv.Count(openaitest.Schema("survey")) == before {
				t.Error("no survey was asked of the model")
			}
			for _, r := range readReport(t, dir).Rules {
				if r.Summary.Failures != 0 {
					t.Errorf("%d failed actions", r.Summary.Failures)
				}
			}
		})
	}
}

// A language-model persona is told its stance and, when asked for, its
// confirmation bias.
func TestSimDyadsLLMPersonasCarryStanceAndBias(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	code, _, errOut := run(t, "", "sim", "--protocol", "dyads", "--agent", "llm", "--llm-base-url", srv.URL(), "--llm-model", "m",
		"--confirmation-bias", "strong", "--stances", "echo:2", "--question", "The claim", "--agents", "3", "--rounds", "2", "--runs", "1", "--out", t.TempDir())
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	reqs := srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model calls")
	}
	for _, want := range []string{"you strongly agree with it", "mostly dismiss what contradicts it"} {
		if !strings.Contains(reqs[0].System(), want) {
			t.Errorf("the system prompt lacks %q:\n%s", want, reqs[0].System())
		}
	}
}

func TestSimProtocolRefusesBadFlags(t *testing.T) {
	cases := map[string][]string{
		"--protocol":          {"--protocol", "fishbowl", "--question", "x"},
		"--question":          {"--protocol", "dyads"},
		"--agent":             {"--protocol", "chatroom", "--agent", "deffuant", "--question", "x"},
		"--stances":           {"--protocol", "dyads", "--stances", "echo:sure", "--question", "x"},
		"--rule":              {"--protocol", "dyads", "--rule", "all", "--question", "x"},
		"--confirmation-bias": {"--protocol", "chatroom", "--confirmation-bias", "strong", "--question", "x"},
		"--context-chars":     {"--protocol", "chatroom", "--context-chars", "-5", "--question", "x"},
		"--complement":        {"--protocol", "dyads", "--complement", "y", "--question", "x"},
	}
	for flag, args := range cases {
		t.Run(flag, func(t *testing.T) {
			code, _, errOut := run(t, "", append([]string{"sim", "--out", t.TempDir()}, args...)...)
			if code != 2 || !strings.Contains(errOut, flag) {
				t.Errorf("exit %d, stderr %q; want 2 naming %s", code, errOut, flag)
			}
		})
	}
}
