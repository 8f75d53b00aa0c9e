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
	return Table{ID: id, Task: "exchange", Rule: rule,
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

func TestPairsFollowTheTransitionRule(t *testing.T) {
	tb := exchangeTable("t", "majority", 0.5)
	got := Pairs(tagged(tb.Messages), 3)
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
	rep := Build(ts, 1)
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
	for from, to := range map[string]string{acts.Start: acts.Inform, acts.Inform: acts.Propose, acts.Propose: acts.Accept, acts.Accept: acts.End} {
		if e := edges[from]; e.To != to || e.P != 1 {
			t.Errorf("strongest edge from %s: %+v, want ->%s with p 1", from, e, to)
		}
	}
	if _, ok := edges[acts.Request]; ok {
		t.Errorf("Request is only followed by its own speaker's act: no edge, got %+v", edges[acts.Request])
	}
	t10 := find(t, rep, "table10_early_stopping_exchange")
	if t10.CSV[0][1] != "majority" || t10.CSV[7][0] != "Oracle" || t10.CSV[7][1] != "0.6" || t10.CSV[1][2] != "0.9" {
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
	files, err := Write(dir, Build(ts, 1), "Two hand-built tables.")
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

func TestRecommendationTablesGiveFigure3AndTable2(t *testing.T) {
	rec := func(id string, errs ...float64) Table {
		return Table{ID: id, Task: "recommendation", Rule: "plurality", Perf: errs,
			Decided: make([]bool, len(errs)), Agreed: make([]bool, len(errs)), Proposed: make([]bool, len(errs))}
	}
	// Errors per round: round 1 |1| and |3| (MAE 2, RMSE sqrt(5)); round 2
	// 0 and 1 (MAE 0.5); each table is best in round 2.
	rep := Build([]Table{rec("a", 1, 0, 2), rec("b", 3, 1, 1)}, 1)
	mae := find(t, rep, "figure3a_mae_per_round")
	if y := mae.Chart.Lines[0].Y; !slices.Equal(y, []float64{2, 0.5, 1.5}) {
		t.Errorf("MAE per round %v", y)
	}
	rmse := find(t, rep, "figure3b_rmse_per_round")
	if y := rmse.Chart.Lines[0].Y[0]; !near(y, math.Sqrt(5)) || rmse.CSV[1][2] != Num(math.Sqrt(5)) {
		t.Errorf("RMSE of round 1: %v, %v", y, rmse.CSV[1])
	}
	t2 := find(t, rep, "table2_early_stopping_recommendation")
	if t2.CSV[7][0] != "Oracle" || t2.CSV[7][1] != "0.5" || t2.CSV[1][1] != "1.5" {
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
	a := Build(ts, 3)
	slices.Reverse(ts)
	b := Build(ts, 3)
	if !reflect.DeepEqual(find(t, a, "table11_early_stopping_stats_exchange").CSV, find(t, b, "table11_early_stopping_stats_exchange").CSV) {
		t.Error("reversing the tables changed the early-stopping results")
	}
}
