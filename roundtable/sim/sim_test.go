package sim_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

func exchangeSpec(t testing.TB, rule vote.Rule, runs int) sim.Spec {
	task, err := exchange.NewTask(3, "asymmetric")
	if err != nil {
		t.Fatal(err)
	}
	return sim.Spec{
		Name: "x-" + string(rule), Runs: runs, Seed: 7,
		Setup: func(i int, seed int64) (sim.Table, error) {
			cfg := roundtable.Config{Task: roundtable.TaskSpec{Kind: "exchange"}, Rule: rule, Rounds: 10}
			agents := map[string]roundtable.Agent{}
			for k := range 3 {
				id := fmt.Sprintf("a%d", k+1)
				cfg.Participants = append(cfg.Participants, roundtable.Participant{ID: id, Name: id, Kind: roundtable.Bot})
				agents[id] = &exchange.UtilityAgent{Task: task}
			}
			return sim.Table{Task: task, Config: cfg, Agents: agents}, nil
		},
		Measure: func(tk roundtable.Task, s *roundtable.State) sim.Measures {
			m := tk.(*exchange.Task).Measure(s)
			u := make([]float64, 10)
			for r := range u {
				u[r] = m.At(r + 1)
			}
			return sim.Measures{Series: map[string][]float64{"U": u}, Scalars: map[string]float64{"rigidity": m.Rigidity}}
		},
	}
}

func TestExchangeTablesReachHighUtility(t *testing.T) {
	for _, rule := range vote.Rules() {
		t.Run(string(rule), func(t *testing.T) {
			res, err := sim.Execute(context.Background(), roundtabletest.NewMemStore(), roundtable.SystemClock{}, exchangeSpec(t, rule, 4))
			if err != nil {
				t.Fatal(err)
			}
			u := res.Summary.Series["U"]
			if len(u) != 10 || res.Summary.Runs != 4 {
				t.Fatalf("summary %+v", res.Summary)
			}
			t.Logf("%s: U@1 %.3f U@3 %.3f U@10 %.3f failures %d", rule, u[0].Mean, u[2].Mean, u[9].Mean, res.Summary.Failures)
			if res.Summary.Failures != 0 {
				t.Errorf("%d failed or rejected agent actions", res.Summary.Failures)
			}
		})
	}
}

func TestRerunResumesFromStore(t *testing.T) {
	st := roundtabletest.NewMemStore()
	spec := exchangeSpec(t, vote.Majority, 2)
	first, err := sim.Execute(context.Background(), st, roundtable.SystemClock{}, spec)
	if err != nil {
		t.Fatal(err)
	}
	again, err := sim.Execute(context.Background(), st, roundtable.SystemClock{}, spec)
	if err != nil {
		t.Fatal(err)
	}
	for i := range first.Runs {
		if !again.Runs[i].Resumed {
			t.Errorf("run %d was not taken from the store", i)
		}
		if a, b := first.Runs[i].Measures.Series["U"], again.Runs[i].Measures.Series["U"]; fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("run %d: U %v then %v", i, a, b)
		}
	}
}

func TestResumeRefusesOtherSettings(t *testing.T) {
	st := roundtabletest.NewMemStore()
	spec := exchangeSpec(t, vote.Majority, 1)
	if _, err := sim.Execute(context.Background(), st, roundtable.SystemClock{}, spec); err != nil {
		t.Fatal(err)
	}
	setup := spec.Setup
	spec.Setup = func(i int, seed int64) (sim.Table, error) {
		tb, err := setup(i, seed)
		tb.Config.Tie = vote.TieRandom
		return tb, err
	}
	_, err := sim.Execute(context.Background(), st, roundtable.SystemClock{}, spec)
	var re *sim.RecipeError
	if !errors.As(err, &re) || len(re.Keys) != 1 || !strings.HasPrefix(re.Keys[0], `tie: "defer" stored, "random" asked`) {
		t.Errorf("resuming with another tie policy: %v, want a refusal naming the tie", err)
	}
}

// TestRunOnBboltMeasuresArchivedRounds runs the same tables in memory and
// on a bbolt file, where a table's ended rounds leave memory as it plays:
// the measures, actions and failures of every round are the same.
func TestRunOnBboltMeasuresArchivedRounds(t *testing.T) {
	db, err := store.Open(filepath.Join(t.TempDir(), "sim.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	spec := exchangeSpec(t, vote.Borda, 2)
	mem, err := sim.Execute(t.Context(), roundtabletest.NewMemStore(), roundtable.SystemClock{}, spec)
	if err != nil {
		t.Fatal(err)
	}
	disk, err := sim.Execute(t.Context(), db, roundtable.SystemClock{}, spec)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range mem.Runs {
		d := disk.Runs[i]
		if d.Rounds != m.Rounds || d.Actions != m.Actions || d.Failures != m.Failures ||
			fmt.Sprint(d.Measures) != fmt.Sprint(m.Measures) || d.Usage != m.Usage {
			t.Errorf("run %d on bbolt: %+v\nin memory: %+v", i, d, m)
		}
	}
	tbl, err := roundtable.Open(t.Context(), db, roundtable.SystemClock{}, nil, mem.Runs[0].Table)
	if err != nil {
		t.Fatal(err)
	}
	if n := tbl.Snapshot().Archived; n == 0 {
		t.Error("no round of a 10-round table was archived: the test checks nothing")
	}
}
