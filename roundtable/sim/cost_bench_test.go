package sim_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// BenchmarkSimCostRounds plays whole 3-agent exchange tables of R rounds
// with utility agents and an in-memory store, one table at a time, and
// reports the CPU cost per round (ns/round): flat in R when every phase
// costs the same whatever the history.
func BenchmarkSimCostRounds(b *testing.B) {
	for _, rounds := range []int{10, 50, 200} {
		b.Run(fmt.Sprintf("K=3/R=%d", rounds), func(b *testing.B) { benchCost(b, 3, rounds) })
	}
}

// BenchmarkSimCostAgents is BenchmarkSimCostRounds for K agents and 10
// rounds. A phase's input grows as K^3 (K proposals of K x K amounts).
func BenchmarkSimCostAgents(b *testing.B) {
	for _, k := range []int{3, 10, 50} {
		b.Run(fmt.Sprintf("K=%d/R=10", k), func(b *testing.B) { benchCost(b, k, 10) })
	}
}

func benchCost(b *testing.B, k, rounds int) {
	task, err := exchange.NewTask(k, exchange.Asymmetric)
	if err != nil {
		b.Fatal(err)
	}
	task.Econ.UMax()
	spec := sim.Spec{Name: b.Name(), Runs: b.N, Seed: 1, Concurrency: 1,
		Setup: func(int, int64) (sim.Table, error) { return costTable(task, k, rounds), nil }}
	b.ResetTimer()
	res, err := sim.Execute(context.Background(), roundtabletest.NewMemStore(), roundtable.SystemClock{}, spec)
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
