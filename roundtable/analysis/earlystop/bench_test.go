package earlystop

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomRuns are n ten-round runs with noisy performance and three act
// pairs a round drawn from 30, for timing the search.
func randomRuns(n int) []Run {
	rng := rand.New(rand.NewPCG(1, 2))
	runs := make([]Run, n)
	for i := range runs {
		r := Run{}
		for range 10 {
			r.Perf = append(r.Perf, rng.Float64())
			r.Agreed = append(r.Agreed, rng.IntN(2) == 0)
			r.Proposed = append(r.Proposed, rng.IntN(2) == 0)
			r.InfoDiff = append(r.InfoDiff, rng.Float64())
			pairs := map[Pair]int{}
			for range 3 {
				pairs[Pair{From: fmt.Sprint("a", rng.IntN(6)), To: fmt.Sprint("b", rng.IntN(5))}]++
			}
			r.Pairs = append(r.Pairs, pairs)
		}
		runs[i] = r
	}
	return runs
}

// BenchmarkEvaluate times the 5-fold evaluation of every method over 100
// ten-round runs (the paper's runs per rule).
func BenchmarkEvaluate(b *testing.B) {
	runs := randomRuns(100)
	for b.Loop() {
		if _, err := Evaluate(runs, Options{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
