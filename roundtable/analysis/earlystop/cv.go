package earlystop

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DefaultFolds is the paper's k.
const DefaultFolds = 5

// Folds splits the run indices 0..n-1 into k folds: a permutation drawn
// from seed (PCG, so the same seed gives the same folds on every machine
// and Go version), cut into k contiguous parts whose sizes differ by at
// most one (the first n mod k parts hold one more). With n < k there are
// n folds of one run.
func Folds(n, k int, seed int64) [][]int {
	if n <= 0 || k <= 0 {
		return nil
	}
	k = min(k, n)
	perm := rand.New(rand.NewPCG(uint64(seed), 0x5eed_f01d)).Perm(n)
	out := make([][]int, k)
	at := 0
	for i := range k {
		size := n / k
		if i < n%k {
			size++
		}
		out[i] = perm[at : at+size]
		at += size
	}
	return out
}

// Options configure Evaluate.
type Options struct {
	Folds     int   // k; 0 means DefaultFolds
	Seed      int64 // draws the folds
	Direction Direction
}

// Outcome is one method's cross-validated result: the mean performance
// over all held-out runs at the round the method stopped them, the mean
// stop round, the effective ratio (the share of held-out runs where the
// method's signal fired), the mean of the trained threshold over folds
// (NaN for untrained methods or when no fold learned one) and each fold's
// parameters.
type Outcome struct {
	Method    Method   `json:"method"`
	Perf      float64  `json:"performance"`
	Round     float64  `json:"stopped_round"`
	Effective float64  `json:"effective_ratio"`
	Threshold float64  `json:"threshold"`
	Runs      int      `json:"runs"`
	Params    []string `json:"fold_params,omitempty"`
}

// Evaluate scores every method with k-fold cross-validation: for each
// fold, the trained methods learn on the other folds and stop the fold's
// runs; the untrained ones (@R, first agreement, consecutive agreements,
// oracle) stop each run on its own; the ensemble takes the majority of the
// five signal methods of the fold. It needs at least two runs (one to
// train on, one to test).
func Evaluate(runs []Run, o Options) ([]Outcome, error) {
	if len(runs) < 2 {
		return nil, fmt.Errorf("early stopping: %d runs; cross-validation needs at least 2", len(runs))
	}
	for i, r := range runs {
		if err := r.Validate(); err != nil {
			return nil, fmt.Errorf("early stopping: run %d: %w", i+1, err)
		}
	}
	k := o.Folds
	if k <= 0 {
		k = DefaultFolds
	}
	acc := map[Method]*accum{}
	for _, m := range Methods() {
		acc[m] = &accum{}
	}
	oracle := func(r Run) Stop { return Stop{Round: o.Direction.best(r), Fired: true} }
	for _, fold := range Folds(len(runs), k, o.Seed) {
		test, train := split(runs, fold)
		trained := map[Method]Trained{
			Checkpoint:     TrainCheckpoint(train, o.Direction),
			InfoDifference: TrainInfoDiff(train, o.Direction),
			DialogueAct:    TrainDialogueAct(train, o.Direction),
		}
		fixed := map[Method]stopper{Baseline: runToEnd, FirstAgreement: firstAgreement, Consecutive: consecutive, Oracle: oracle}
		for m, t := range trained {
			acc[m].fold(t.Threshold, t.Params)
			acc[m].apply(test, t.stop)
		}
		for m, s := range fixed {
			acc[m].apply(test, s)
		}
		acc[Ensemble].apply(test, ensemble(firstAgreement, consecutive, trained[Checkpoint].stop, trained[InfoDifference].stop, trained[DialogueAct].stop))
	}
	out := make([]Outcome, 0, len(acc))
	for _, m := range Methods() {
		out = append(out, acc[m].outcome(m, m == Baseline || m == Oracle))
	}
	return out, nil
}

func split(runs []Run, fold []int) (test, train []Run) {
	in := map[int]bool{}
	for _, i := range fold {
		in[i] = true
		test = append(test, runs[i])
	}
	for i, r := range runs {
		if !in[i] {
			train = append(train, r)
		}
	}
	return test, train
}

type accum struct {
	perf, round, fired float64
	n                  int
	thresholds         []float64
	params             []string
}

func (a *accum) apply(test []Run, s stopper) {
	for _, r := range test {
		st := s(r)
		a.perf += r.Perf[st.Round-1]
		a.round += float64(st.Round)
		if st.Fired {
			a.fired++
		}
		a.n++
	}
}

func (a *accum) fold(threshold float64, params string) {
	if !math.IsNaN(threshold) {
		a.thresholds = append(a.thresholds, threshold)
	}
	a.params = append(a.params, params)
}

func (a *accum) outcome(m Method, alwaysEffective bool) Outcome {
	o := Outcome{Method: m, Runs: a.n, Threshold: math.NaN(), Params: a.params}
	n := float64(a.n)
	o.Perf, o.Round, o.Effective = a.perf/n, a.round/n, a.fired/n
	if alwaysEffective {
		o.Effective = 1
	}
	if len(a.thresholds) > 0 {
		sum := 0.0
		for _, t := range a.thresholds {
			sum += t
		}
		o.Threshold = sum / float64(len(a.thresholds))
	}
	return o
}
