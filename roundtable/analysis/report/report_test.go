package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/earlystop"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report/reporttest"
)

// exchangeTable is a hand-built three-round exchange table: agent-1
// informs in round 1, agent-2 proposes in round 2, agent-1 accepts in
// round 3; a decision holds from round 2.
func exchangeTable(id, rule string, u2 float64) Table {
	return Table{ID: id, Task: "exchange", Rule: rule, Votes: true,
		Decided: []bool{false, true, true}, Agreed: []bool{false, true, false}, Proposed: []bool{true, true, false},
		Perf: []float64{0, u2, u2}, InfoDiff: []float64{math.NaN(), 0.4, 0.1},
		Scalars: map[string]float64{"U@3": 100 * u2, "rigidity": 50}, Failures: 1,
		Messages: []Message{
			{Round: 1, Speaker: "agent-1", Words: 10, FKGrade: 4, Acts: []string{acts.Inform}},
			{Round: 1, Speaker: "agent-2", Words: 20, FKGrade: 6, Acts: []string{acts.Request}},
			{Round: 2, Speaker: "agent-2", Words: 30, FKGrade: 8, Acts: []string{acts.Propose}},
			{Round: 3, Speaker: "agent-1", Words: 40, FKGrade: 10, Acts: []string{acts.Accept}},
		}}
}

func find(t *testing.T, rep Report, name string) Artifact {
	t.Helper()
	for _, a := range rep.Artifacts {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no artifact %s; skipped: %v", name, rep.Skipped)
	return Artifact{}
}

func pair(a, b string) earlystop.Pair { return earlystop.Pair{From: a, To: b} }

// The early-stopping pairs are the numerators of Eq. 1 round by round:
// agent-1 and agent-2 both hold Start, so agent-1's Inform in round 1
// follows agent-2's Start once, and agent-2's Request agent-1's.
func TestPairsFollowTheTransitionRule(t *testing.T) {
	tb := exchangeTable("t", "majority", 0.5)
	got := pairs(tb, acts.SpeakerPairs, 3)
	want := []map[earlystop.Pair]int{
		{pair(acts.Start, acts.Inform): 1, pair(acts.Start, acts.Request): 1},
		{pair(acts.Inform, acts.Propose): 1}, // agent-2's own Request is not followed by its Propose
		{pair(acts.Propose, acts.Accept): 1},
	}
	for r := range want {
		if len(got[r]) != len(want[r]) {
			t.Errorf("round %d: %v, want %v", r+1, got[r], want[r])
		}
		for p, n := range want[r] {
			if got[r][p] != n {
				t.Errorf("round %d: %s = %d, want %d", r+1, p, got[r][p], n)
			}
		}
	}
}

func TestBuildOnHandBuiltTables(t *testing.T) {
	ts := []Table{exchangeTable("a", "majority", 0.5), exchangeTable("b", "majority", 0.7), exchangeTable("c", "rated", 0.9), exchangeTable("d", "rated", 0.9)}
	rep := Build(ts, Options{Seed: 1})
	t1 := find(t, rep, "table1_exchange")
	if len(t1.CSV) != 3 || t1.CSV[1][0] != "majority" || t1.CSV[1][2] != "60" || t1.CSV[1][3] != "10" || t1.CSV[1][len(t1.CSV[1])-1] != "2" {
		t.Errorf("table 1: %v", t1.CSV)
	}
	f2b := find(t, rep, "figure2b_not_agreed")
	if y := f2b.Chart.Lines[0].Y; !slices.Equal(y, []float64{1, 0, 0}) {
		t.Errorf("not agreed per round %v, want 1 0 0", y)
	}
	t8 := find(t, rep, "table8_linguistic")
	if row := t8.CSV[1]; !slices.Equal(row, []string{"majority", "1", "4", "15", "5", "", "0"}) {
		t.Errorf("table 8 round 1: %v", row)
	}
	if row := t8.CSV[2]; row[5] != "0.4" || row[6] != "2" {
		t.Errorf("table 8 round 2: %v", row)
	}
	f4 := find(t, rep, "figure4_transitions_exchange")
	edges := map[string]Edge{}
	for _, e := range f4.Graph.Edges {
		edges[e.From] = e
	}
	// Eq. 1: both agents hold Start, and each act of round 1 follows the
	// other agent's Start only: p(Start->Inform) = p(Start->Request) = 1/2
	// (Inform first among equals); the other edges have one holder and one
	// follower.
	for from, want := range map[string]Edge{acts.Start: {To: acts.Inform, P: 0.5}, acts.Inform: {To: acts.Propose, P: 1},
		acts.Propose: {To: acts.Accept, P: 1}, acts.Accept: {To: acts.End, P: 1}} {
		if e := edges[from]; e.To != want.To || e.P != want.P {
			t.Errorf("strongest edge from %s: %+v, want ->%s with p %v", from, e, want.To, want.P)
		}
	}
	if _, ok := edges[acts.Request]; ok {
		t.Errorf("Request is only followed by its own speaker's act: no edge, got %+v", edges[acts.Request])
	}
	f5 := find(t, rep, "figure5_transitions_by_rule_exchange")
	if f5.Graphs == nil || len(f5.Graphs.Graphs) != 2 || f5.Graphs.Graphs[0].Title != "majority" || f5.Graphs.Graphs[1].Title != "rated" {
		t.Errorf("figure 5: %+v, want one graph for majority, one for rated", f5.Graphs)
	}
	t10 := find(t, rep, "table10_early_stopping_exchange")
	if t10.CSV[0][1] != "majority" || t10.CSV[8][0] != "Oracle" || t10.CSV[8][1] != "0.6" || t10.CSV[1][2] != "0.9" {
		t.Errorf("table 10: %v", t10.CSV)
	}
	find(t, rep, "table11_early_stopping_stats_exchange")
	find(t, rep, "table9_dialogue_acts")
	if !strings.Contains(strings.Join(rep.Skipped, " "), "Figure 3") {
		t.Errorf("skipped %v: want Figure 3 named as unsupported", rep.Skipped)
	}
}

func TestWriteRendersEveryFile(t *testing.T) {
	ts := []Table{exchangeTable("a", "majority", 0.5), exchangeTable("b", "majority", 0.7)}
	dir := t.TempDir()
	files, err := Write(dir, Build(ts, Options{Seed: 1}), "Two hand-built tables.")
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckFiles(t, files)
	idx, err := os.ReadFile(filepath.Join(dir, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if b := filepath.Base(f); b != "index.md" && !strings.Contains(string(idx), "("+b+")") {
			t.Errorf("index.md does not list %s", b)
		}
	}
}

// Figure 2(b) counts the tables that wait for a decision: those whose
// protocol votes. A panel (no vote) beside a majority table leaves the
// majority line alone; panels alone give no Figure 2(b), and say why.
func TestFigure2bOnlyForTablesWithAVote(t *testing.T) {
	panel := Table{ID: "p", Task: "text", Rule: "majority", Decided: []bool{false, false, false}}
	rep := Build([]Table{exchangeTable("a", "majority", 0.5), panel}, Options{Seed: 1})
	if y := find(t, rep, "figure2b_not_agreed").Chart.Lines[0].Y; !slices.Equal(y, []float64{1, 0, 0}) {
		t.Errorf("not agreed per round %v, want 1 0 0 (the panel left out)", y)
	}
	rep = Build([]Table{panel}, Options{Seed: 1})
	for _, a := range rep.Artifacts {
		if a.Name == "figure2b_not_agreed" {
			t.Errorf("Figure 2(b) of tables without a vote: %v", a.CSV)
		}
	}
	if !strings.Contains(strings.Join(rep.Skipped, " "), "Figure 2(b)") {
		t.Errorf("skipped %v: want Figure 2(b) named", rep.Skipped)
	}
}

func TestRecommendationTablesGiveFigure3AndTable2(t *testing.T) {
	rec := func(id string, errs ...float64) Table {
		return Table{ID: id, Task: "recommendation", Rule: "plurality", Perf: errs,
			Decided: make([]bool, len(errs)), Agreed: make([]bool, len(errs)), Proposed: make([]bool, len(errs))}
	}
	// Errors per round: round 1 |1| and |3| (MAE 2, RMSE sqrt(5)); round 2
	// 0 and 1 (MAE 0.5); each table is best in round 2.
	rep := Build([]Table{rec("a", 1, 0, 2), rec("b", 3, 1, 1)}, Options{Seed: 1})
	mae := find(t, rep, "figure3a_mae_per_round")
	if y := mae.Chart.Lines[0].Y; !slices.Equal(y, []float64{2, 0.5, 1.5}) {
		t.Errorf("MAE per round %v", y)
	}
	rmse := find(t, rep, "figure3b_rmse_per_round")
	if y := rmse.Chart.Lines[0].Y[0]; !near(y, math.Sqrt(5)) || rmse.CSV[1][2] != Num(math.Sqrt(5)) {
		t.Errorf("RMSE of round 1: %v, %v", y, rmse.CSV[1])
	}
	t2 := find(t, rep, "table2_early_stopping_recommendation")
	if t2.CSV[8][0] != "Oracle" || t2.CSV[8][1] != "0.5" || t2.CSV[1][1] != "1.5" {
		t.Errorf("table 2 (lower is better): %v", t2.CSV)
	}
	if strings.Contains(strings.Join(rep.Skipped, " "), "Figure 3") {
		t.Errorf("skipped %v", rep.Skipped)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestBuildDoesNotDependOnTheOrderOfTables(t *testing.T) {
	var ts []Table
	for i := range 12 {
		ts = append(ts, exchangeTable(fmt.Sprintf("t%02d", i), "majority", 0.1*float64(i%5)))
		ts[i].Perf = []float64{0.05 * float64(i%3), 0.1 * float64(i%5), 0.1 * float64(i%4)}
	}
	a := Build(ts, Options{Seed: 3})
	slices.Reverse(ts)
	b := Build(ts, Options{Seed: 3})
	if !reflect.DeepEqual(find(t, a, "table11_early_stopping_stats_exchange").CSV, find(t, b, "table11_early_stopping_stats_exchange").CSV) {
		t.Error("reversing the tables changed the early-stopping results")
	}
}

// TransitionsByRule is Figures 5 and 6's computation: each rule's tables
// alone. A majority table where agent-1 informs and agent-2 requests, a
// rated one where both inform: Start->Request is 1/2 under majority
// (agent-2's Request follows agent-1's Start) and 0 under rated.
func TestTransitionsByRuleKeepsRulesApart(t *testing.T) {
	one := func(id, rule, second string) Table {
		return Table{ID: id, Task: "text", Rule: rule, Decided: []bool{false},
			Messages: []Message{{Round: 1, Speaker: "agent-1", Acts: []string{acts.Inform}}, {Round: 1, Speaker: "agent-2", Acts: []string{second}}}}
	}
	rules, graphs := TransitionsByRule([]Table{one("a", "rated", acts.Inform), one("b", "majority", acts.Request), {ID: "c", Rule: "borda"}}, acts.SpeakerPairs)
	if !slices.Equal(rules, []string{"majority", "rated"}) {
		t.Fatalf("rules %v, want majority, rated (borda has no labelled table)", rules)
	}
	if p := graphs["majority"].P(acts.Start, acts.Request); p != 0.5 {
		t.Errorf("majority p(Start->Request) = %v, want 0.5", p)
	}
	if p := graphs["rated"].P(acts.Start, acts.Request); p != 0 {
		t.Errorf("rated p(Start->Request) = %v, want 0", p)
	}
	if p := graphs["rated"].P(acts.Start, acts.Inform); p != 1 {
		t.Errorf("rated p(Start->Inform) = %v, want 1 (each agent's Inform follows the other's Start)", p)
	}
}
