package sim_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// BenchmarkSimCostRounds plays whole 3-agent exchange tables of R rounds
// with utility agents, one table at a time, and reports the cost per round
// (ns/round): flat in R when every phase costs the same whatever the
// history. The store is in memory, or a real bbolt file without fsync
// (which adds the store's encoding, index and snapshots but not the disk).
func BenchmarkSimCostRounds(b *testing.B) {
	for _, st := range []string{"memory", "bbolt"} {
		for _, rounds := range []int{10, 50, 200} {
			b.Run(fmt.Sprintf("store=%s/K=3/R=%d", st, rounds), func(b *testing.B) { benchCost(b, st, 3, rounds) })
		}
	}
}

// BenchmarkSimCostAgents is BenchmarkSimCostRounds for K agents and 10
// rounds. A phase's input grows as K^3 (K proposals of K x K amounts).
func BenchmarkSimCostAgents(b *testing.B) {
	for _, k := range []int{3, 10, 50} {
		b.Run(fmt.Sprintf("store=memory/K=%d/R=10", k), func(b *testing.B) { benchCost(b, "memory", k, 10) })
	}
}

func benchCost(b *testing.B, storeKind string, k, rounds int) {
	var st roundtable.Store = roundtabletest.NewMemStore()
	if storeKind == "bbolt" {
		db, err := store.Open(filepath.Join(b.TempDir(), "cost.db"), store.Options{NoSync: true})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		st = db
	}
	task, err := exchange.NewTask(k, exchange.Asymmetric)
	if err != nil {
		b.Fatal(err)
	}
	task.Econ.UMax()
	spec := sim.Spec{Name: b.Name(), Runs: b.N, Seed: 1, Concurrency: 1,
		Setup: func(int, int64) (sim.Table, error) { return costTable(task, k, rounds), nil }}
	b.ResetTimer()
	cpu := roundtabletest.ProcessCPU()
	res, err := sim.Execute(context.Background(), st, roundtable.SystemClock{}, spec)
	cpu = roundtabletest.ProcessCPU() - cpu
	if err != nil {
		b.Fatal(err)
	}
	played := 0
	for _, r := range res.Runs {
		played += r.Rounds
	}
	if played != b.N*rounds {
		b.Fatalf("played %d rounds, want %d", played, b.N*rounds)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(played), "ns/round")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(played), "cpu-ns/round")
	}
}

func costTable(task *exchange.Task, k, rounds int) sim.Table {
	cfg := roundtable.Config{Task: roundtable.TaskSpec{Kind: "exchange"}, Rule: vote.Majority, Rounds: rounds}
	agents := map[string]roundtable.Agent{}
	for i := range k {
		id := fmt.Sprintf("agent-%d", i+1)
		cfg.Participants = append(cfg.Participants, roundtable.Participant{ID: id, Name: id, Kind: roundtable.Bot})
		agents[id] = &exchange.UtilityAgent{Task: task}
	}
	return sim.Table{Task: task, Config: cfg, Agents: agents}
}
