package openai_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// BenchmarkPhaseConcurrency runs a 3-agent, 10-round table against a fake
// server that answers after a fixed latency L. Agents of a phase are asked
// at once, so a table should take about 30 L (10 rounds x 3 phases), not
// the 90 L of asking them one by one. It reports the table's time in units
// of L and its ratio to the sequential 90 L.
func BenchmarkPhaseConcurrency(b *testing.B) {
	const latency = 20 * time.Millisecond
	srv := openaitest.NewServer(openaitest.Delay(openaitest.Responder{}.Handle, latency))
	defer srv.Close()
	client := openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake-model"})
	task := roundtable.TextTask{Topic: "what should the team build next?"}
	a := agent.New(client, task, agent.Options{})
	agents := map[string]roundtable.Agent{}
	for _, p := range seats {
		agents[p.ID] = a
	}
	ctx := context.Background()
	var total time.Duration
	for i := 0; b.Loop(); i++ {
		tbl, err := roundtable.Create(ctx, roundtabletest.NewMemStore(), roundtable.SystemClock{}, task, "bench",
			roundtable.Config{Rule: vote.Plurality, Rounds: 10, Participants: seats})
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		if _, err := (&roundtable.Runner{Agents: agents}).Run(ctx, tbl); err != nil {
			b.Fatal(err)
		}
		total += time.Since(start)
	}
	perTable := float64(total) / float64(b.N) / float64(latency)
	b.ReportMetric(perTable, "L/table")
	b.ReportMetric(perTable/90, "ratio_to_sequential")
}

// BenchmarkTenAgentPhase asks 10 agents at once, as one phase of a
// 10-agent table does, against a fake server with latency L, under an
// endpoint limit of 8 (the old default) and of 10 (the default now: at
// least the agents of a table). It reports the phase's time in units of L.
func BenchmarkTenAgentPhase(b *testing.B) {
	const latency, agents = 20 * time.Millisecond, 10
	srv := openaitest.NewServer(openaitest.Delay(openaitest.Responder{}.Handle, latency))
	defer srv.Close()
	for _, limit := range []int{8, agents} {
		b.Run(fmt.Sprintf("max_concurrent=%d", limit), func(b *testing.B) {
			client := openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake-model", MaxConcurrent: limit})
			var total time.Duration
			for b.Loop() {
				start := time.Now()
				var wg sync.WaitGroup
				for range agents {
					wg.Go(func() {
						if _, err := client.Complete(context.Background(), agent.Request{Messages: hello()}); err != nil {
							b.Error(err)
						}
					})
				}
				wg.Wait()
				total += time.Since(start)
			}
			b.ReportMetric(float64(total)/float64(b.N)/float64(latency), "L/phase")
		})
	}
}
