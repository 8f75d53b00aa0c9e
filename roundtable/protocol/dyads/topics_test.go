package dyads

import (
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Tables 1 and 2 average each claim's mean first, then over the claims:
// under false framing, flat-earth's two tables end at B -1 and -1 (D .2
// and .4), t-rex-humans at 0, global-warming at 1 (science: B 0, SE
// sqrt(1/3) = .5774 across three claims; D .3, .6, .9: .6), and
// moon-landing at .5 (history). Table 1 over the four: B (-1+0+1+.5)/4 =
// .125. A run on a question of one's own has no claim and stays out.
func TestTablesOneAndTwoAverageOverClaims(t *testing.T) {
	runs := protocol.NewRuns()
	add := func(cond, claim string, b, d float64) {
		params := map[string]string{"claim": claim, "framing": "false", "control": "none", "memory": "cumulative"}
		runs.Measures[cond] = append(runs.Measures[cond], sim.Measures{Scalars: map[string]float64{"B_final": b, "D_final": d}})
		runs.Params[cond] = params
	}
	add("fe", "flat-earth", -1, .2)
	add("fe", "flat-earth", -1, .4)
	add("tr", "t-rex-humans", 0, .6)
	add("gw", "global-warming", 1, .9)
	add("ml", "moon-landing", .5, 1)
	add("own", "", 2, 2)
	t1, t2, ok := acrossTopics(runs)
	if !ok || len(t1.CSV) != 2 || len(t2.CSV) != 3 {
		t.Fatalf("tables %v %v", t1.CSV, t2.CSV)
	}
	row := func(rows [][]string, i int) map[string]string {
		m := map[string]string{}
		for j, h := range rows[0] {
			m[h] = rows[i][j]
		}
		return m
	}
	if r := row(t1.CSV, 1); r["topics"] != "4" || r["tables"] != "5" || r["B"] != "0.1250" || r["framing"] != "false" {
		t.Errorf("Table 1: %v", r)
	}
	sci, hist := row(t2.CSV, 1), row(t2.CSV, 2)
	if sci["category"] != Science || sci["topics"] != "3" || sci["B"] != "0.0000" || sci["B_se"] != "0.5774" || sci["D"] != "0.6000" {
		t.Errorf("Table 2, science: %v", sci)
	}
	if hist["category"] != History || hist["B"] != "0.5000" {
		t.Errorf("Table 2, history: %v", hist)
	}
	if _, _, ok := acrossTopics(protocol.NewRuns()); ok {
		t.Error("tables without any claim")
	}
}

// The paper's 15 topics, five per category.
func TestClaimsAreThePapersFifteen(t *testing.T) {
	per := map[string]int{}
	for _, c := range Claims() {
		per[c.Category]++
	}
	if len(Claims()) != 15 || per[Science] != 5 || per[History] != 5 || per[CommonSense] != 5 {
		t.Errorf("claims per category %v", per)
	}
}
