package protocol_test

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	_ "github.com/roundtable-ai/roundtable/roundtable/protocol/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Build names the protocols it knows when asked for another, and the
// setting at fault when a protocol is given another one's setting.
func TestBuildRefusesUnknownProtocolsAndOthersSettings(t *testing.T) {
	for _, c := range []struct {
		s    protocol.Settings
		want string
	}{
		{protocol.Settings{Key: "--protocol", Protocol: "fishbowl"}, `--protocol: unknown preset "fishbowl" (want chatroom, dyads, panel, questionnaire or roundtable)`},
		{protocol.Settings{Key: "table[0].protocol", Protocol: "dyads", Complement: "no"}, `table[0].complement: a setting of the chatroom protocol, not of "dyads" (table[0].protocol)`},
		{protocol.Settings{Key: "--protocol", Control: "no-interaction"}, `--control: a setting of the dyads protocol, not of "roundtable" (--protocol)`},
		{protocol.Settings{Key: "--protocol", Protocol: "chatroom", Alphas: []float64{0.1, 0.2}}, `--alpha: a setting of the panel protocol`},
		{protocol.Settings{Key: "--protocol", Protocol: "dyads", Memory: "photographic"}, `--memory: "photographic" is not cumulative or reflective`},
		{protocol.Settings{Key: "--protocol", Protocol: "dyads", Claim: "flat-earth", Question: "q"}, `--claim: give a built-in claim or --question, not both`},
		{protocol.Settings{Key: "--protocol", Protocol: "questionnaire", ContextChars: -1}, `--context-chars: -1 is negative`},
	} {
		if _, err := protocol.Build(c.s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.s, err, c.want)
		}
	}
}

// The questionnaire owns the chatroom's settings, and a protocol's
// settings are recorded where analyze finds them.
func TestBuildRecordsTheConditions(t *testing.T) {
	pr, err := protocol.Build(protocol.Settings{Key: "--protocol", Protocol: "questionnaire", Question: "q", Complement: "not q"})
	if err != nil || pr.Params["complement"] != "not q" {
		t.Fatalf("questionnaire: %v, %+v", err, pr)
	}
	pr, err = protocol.Build(protocol.Settings{Key: "--protocol", Protocol: "dyads", Claim: "flat-earth", Framing: "false"})
	if err != nil || pr.Round[1].Scale.Question != "Theory XYZ claims that the Earth is flat." || pr.Params["claim"] != "flat-earth" || pr.Params["memory"] != "cumulative" {
		t.Fatalf("dyads: %v, %+v", err, pr)
	}
	if pr, err := protocol.Build(protocol.Settings{}); pr != nil || err != nil {
		t.Errorf("RoundTable's own schedule: %+v, %v", pr, err)
	}
}

// The uniform start seats exactly k/5 agents per level, whatever the
// seed (Opinion dynamics: two per level for 10 agents, B = 0, D = 1.49);
// other k are as even as possible and stay unbiased.
func TestUniformStancesSeatEveryLevelEqually(t *testing.T) {
	for _, seed := range []int64{1, 2, 3} {
		xs, err := protocol.Stances(protocol.Settings{Stances: "uniform"}, 10, seed)
		if err != nil {
			t.Fatal(err)
		}
		count := map[float64]int{}
		for _, x := range xs {
			count[x]++
		}
		for lvl := -2.0; lvl <= 2; lvl++ {
			if count[lvl] != 2 {
				t.Errorf("seed %d: %v: %d at %g, want 2 per level", seed, xs, count[lvl], lvl)
			}
		}
		if b, d := opinion.Bias(xs), opinion.Diversity(xs); b != 0 || math.Round(d*100)/100 != 1.49 {
			t.Errorf("seed %d: B %v, D %v, want 0 and 1.49", seed, b, d)
		}
	}
	for k, want := range map[int][]float64{1: {0}, 3: {-1, 0, 1}, 7: {-2, -1, -1, 0, 1, 1, 2}, 9: {-2, -2, -1, -1, 0, 1, 1, 2, 2}} {
		if got := protocol.Uniform(k); !slices.Equal(got, want) {
			t.Errorf("Uniform(%d) = %v, want %v", k, got, want)
		}
	}
}

// A protocol's figures name a condition by its tables' title when they
// have one (live tables), and give each mean over runs its standard
// error: B after each step of two runs, (0, 1) and (1, 1), has means
// 0.5, 1 and SEs 0.5, 0.
func TestRunsLabelByTitleAndChartWithStandardErrors(t *testing.T) {
	runs := protocol.NewRuns()
	for i, b := range [][]float64{{0, 1}, {1, 1}} {
		s := &roundtable.State{ID: fmt.Sprintf("live-%d", i), Config: roundtable.Config{Title: "Dyads on the Great Wall"}}
		runs.Add(protocol.Table{State: s, Condition: "live"}, protocol.Measured{Measures: sim.Measures{Series: map[string][]float64{"B": b}}}, false)
	}
	a := runs.Measures.Chart("b", "B", "", "B", "step", "B", runs.Label)
	l := a.Chart.Lines[0]
	if l.Name != "Dyads on the Great Wall" || !slices.Equal(l.Y, []float64{0.5, 1}) || !slices.Equal(l.SE, []float64{0.5, 0}) {
		t.Errorf("line %+v", l)
	}
	if runs.Label("sim-cond") != "sim-cond" {
		t.Error("an untitled condition is named by its ID")
	}
}
