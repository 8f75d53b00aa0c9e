package main

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"
)

// BenchmarkFleetPhaseClose keeps clock tables live on three serve
// processes over a three-member etcd cluster (1,000 tables, or
// ROUNDTABLE_FLEET_TABLES) and measures, from outside through a watch of
// the store, how late each phase closed at its deadline became durable:
// the p50 and p99 of deadline → PhaseClosed in etcd. Each iteration waits
// for one close per table. One iteration takes a phase or more; run it
// with -benchtime=1x.
func BenchmarkFleetPhaseClose(b *testing.B) {
	tables := 1000
	if n, err := strconv.Atoi(os.Getenv("ROUNDTABLE_FLEET_TABLES")); err == nil && n > 0 {
		tables = n
	}
	plan := failoverPlan{processes: 3, members: 3, tables: tables, leaseTTL: 3 * time.Second, phase: 20 * time.Second, rounds: 10}
	f := startFleet(b, fleetOptions{processes: plan.processes, members: plan.members, leaseTTL: plan.leaseTTL})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait(); f.stopAll() }()
	keeper := newClockKeeper(f, plan)
	wg.Add(1)
	go func() { defer wg.Done(); keeper.run(ctx) }()
	keeper.waitLive(ctx, b)
	from := len(f.obs.closeLateness())
	b.ResetTimer()
	for range b.N {
		if !f.obs.waitCloses(ctx, len(f.obs.closeLateness())+tables) {
			b.Fatal("stopped waiting")
		}
	}
	b.StopTimer()
	closes := f.obs.closeLateness()[from:]
	b.ReportMetric(float64(pct(closes, 50).Microseconds())/1000, "p50-close-ms")
	b.ReportMetric(float64(pct(closes, 99).Microseconds())/1000, "p99-close-ms")
	b.ReportMetric(float64(len(closes)), "closes")
}
