package earlystop

import (
	"math"
	"slices"
	"testing"
)

var nan = math.NaN()

// peakRun is a table that is best at round peak (performance 0.9, else
// 0.5 rising by 0.01 a round), agrees first in round agree, stops making
// new proposals in round quiet, has information difference falling by 0.1
// a round from 0.9 in round 2, and says Propose->Accept only in round peak.
func peakRun(rounds, peak, agree, quiet int) Run {
	r := Run{}
	for i := 1; i <= rounds; i++ {
		p := 0.5 + 0.01*float64(i)
		if i == peak {
			p = 0.9
		}
		r.Perf = append(r.Perf, p)
		r.Agreed = append(r.Agreed, i >= agree)
		r.Proposed = append(r.Proposed, i < quiet)
		d := nan
		if i > 1 {
			d = 1.0 - 0.1*float64(i-1)
		}
		r.InfoDiff = append(r.InfoDiff, d)
		pairs := map[Pair]int{{"Inform", "Request"}: 2}
		if i == peak {
			pairs = map[Pair]int{{"Propose", "Accept"}: 1}
		}
		r.Pairs = append(r.Pairs, pairs)
	}
	return r
}

func outcomes(t *testing.T, runs []Run, o Options) map[Method]Outcome {
	t.Helper()
	res, err := Evaluate(runs, o)
	if err != nil {
		t.Fatal(err)
	}
	m := map[Method]Outcome{}
	for _, x := range res {
		m[x.Method] = x
	}
	if len(m) != 8 {
		t.Fatalf("%d methods, want 8", len(m))
	}
	return m
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestEachMethodStopsWhereItsSignalSays(t *testing.T) {
	var runs []Run
	for range 10 {
		runs = append(runs, peakRun(10, 3, 2, 4))
	}
	got := outcomes(t, runs, Options{Seed: 1})
	want := map[Method]struct{ round, perf, eff float64 }{
		Baseline:       {10, 0.60, 1},
		FirstAgreement: {2, 0.52, 1},
		Consecutive:    {4, 0.54, 1}, // round 3 agreed, nobody proposes anew in 4
		Checkpoint:     {3, 0.9, 1},
		InfoDifference: {4, 0.54, 1}, // threshold 0.8 (round 3's), first below it is round 4
		DialogueAct:    {3, 0.9, 1},
		Ensemble:       {3, 0.9, 1}, // the five stop at 2, 4, 3, 4, 3: the third earliest is 3
		Oracle:         {3, 0.9, 1},
	}
	for m, w := range want {
		g := got[m]
		if !near(g.Round, w.round) || !near(g.Perf, w.perf) || !near(g.Effective, w.eff) || g.Runs != 10 {
			t.Errorf("%s: round %v perf %v effective %v runs %d; want %v %v %v 10", m, g.Round, g.Perf, g.Effective, g.Runs, w.round, w.perf, w.eff)
		}
	}
	if !near(got[InfoDifference].Threshold, 0.8) || !near(got[Checkpoint].Threshold, 3) {
		t.Errorf("thresholds: info %v checkpoint %v", got[InfoDifference].Threshold, got[Checkpoint].Threshold)
	}
	if len(got[DialogueAct].Params) != 5 {
		t.Errorf("dialogue act params of %d folds, want 5", len(got[DialogueAct].Params))
	}
}

// The ensemble stops when three of the five signals have: at 2, 5 and 7
// of signals firing at 7, 2, 5 and never twice, round 7; with two firing
// it runs to the end, unfired.
func TestEnsembleStopsAtTheThirdSignal(t *testing.T) {
	at := func(round int) stopper {
		return func(r Run) Stop {
			if round == 0 {
				return runToEnd(r)
			}
			return Stop{Round: round, Fired: true}
		}
	}
	r := peakRun(10, 3, 2, 4)
	if st := ensemble(at(7), at(2), at(0), at(5), at(0))(r); st != (Stop{Round: 7, Fired: true}) {
		t.Errorf("three fired: %+v, want round 7", st)
	}
	if st := ensemble(at(7), at(2), at(0), at(0), at(0))(r); st != (Stop{Round: 10}) {
		t.Errorf("two fired: %+v, want the end, unfired", st)
	}
}

func TestCheckpointIsTheRoundedMeanBestRound(t *testing.T) {
	train := []Run{peakRun(10, 2, 1, 11), peakRun(10, 3, 1, 11), peakRun(10, 4, 1, 11), peakRun(10, 4, 1, 11)}
	tr := TrainCheckpoint(train, HigherIsBetter) // mean 3.25
	if tr.Threshold != 3 {
		t.Errorf("checkpoint %v, want 3", tr.Threshold)
	}
	if s := tr.stop(peakRun(2, 1, 1, 11)); s.Round != 2 || s.Fired {
		t.Errorf("a run shorter than the checkpoint stops at %+v, want its last round, not fired", s)
	}
}

func TestLowerIsBetterPicksTheSmallestError(t *testing.T) {
	r := Run{Perf: []float64{1.5, 0.2, 0.7}}
	if b := LowerIsBetter.best(r); b != 2 {
		t.Errorf("best round %d, want 2", b)
	}
	got := outcomes(t, []Run{r, r, r}, Options{Direction: LowerIsBetter, Seed: 3})
	if o := got[Oracle]; !near(o.Perf, 0.2) || o.Round != 2 {
		t.Errorf("oracle %+v", o)
	}
	if o := got[Baseline]; !near(o.Perf, 0.7) {
		t.Errorf("baseline %+v", o)
	}
	if o := got[InfoDifference]; o.Effective != 0 || !math.IsNaN(o.Threshold) {
		t.Errorf("with no information difference the method cannot fire: %+v", o)
	}
}

func TestRegressOnHandComputedData(t *testing.T) {
	a, b := Pair{"Inform", "Request"}, Pair{"Propose", "Accept"}
	// rows: b with y 1 and 3, a with y 0 and 2: means 2 and 1, overall 1.5,
	// residual variance 4/(4-2) = 2, standard error 1, t = 0.5 on 2 degrees
	// of freedom, two-sided p = 2/3.
	runs := []Run{{Perf: []float64{1, 0}, Pairs: []map[Pair]int{{b: 1}, {a: 1}}}, {Perf: []float64{3, 2}, Pairs: []map[Pair]int{{b: 1}, {a: 1}}}}
	c := Regress(runs, HigherIsBetter)
	if len(c) != 2 || c[0].Pair != b || !near(c[0].Beta, 0.5) || !near(c[1].Beta, -0.5) {
		t.Fatalf("coefficients %+v", c)
	}
	if !near(c[0].P, 2.0/3) || !near(c[1].P, 2.0/3) || c[0].Count != 2 {
		t.Errorf("p-values %v %v, want 2/3", c[0].P, c[1].P)
	}
	if got := candidates(c, 0.5); len(got) != 0 {
		t.Errorf("p < 0.5 candidates %v, want none", got)
	}
	if got := candidates(c, nan); !slices.Equal(got, []Pair{b}) {
		t.Errorf("None candidates %v, want only the positive pair", got)
	}
}

func TestDialogueActNeedsEnoughOccurrences(t *testing.T) {
	p := Pair{"Request", "Propose"}
	a := ActRule{Candidates: []Pair{p}, PValue: nan, CountPerRound: 2, Score: 1}
	r := Run{Perf: []float64{0, 0, 0}, Pairs: []map[Pair]int{{p: 1}, {p: 2}, {p: 3}}}
	if s := a.stop(r); s.Round != 2 || !s.Fired {
		t.Errorf("stop %+v, want round 2", s)
	}
}

func TestFoldsAreADeterministicPartition(t *testing.T) {
	f := Folds(23, 5, 7)
	if !slices.EqualFunc(f, Folds(23, 5, 7), slices.Equal) {
		t.Fatal("the same seed gave other folds")
	}
	if slices.EqualFunc(f, Folds(23, 5, 8), slices.Equal) {
		t.Error("another seed gave the same folds")
	}
	var all []int
	for i, fold := range f {
		want := 4
		if i < 3 {
			want = 5
		}
		if len(fold) != want {
			t.Errorf("fold %d has %d runs, want %d", i, len(fold), want)
		}
		all = append(all, fold...)
	}
	slices.Sort(all)
	for i, x := range all {
		if x != i {
			t.Fatalf("folds are not a partition of 0..22: %v", all)
		}
	}
	// Pinned: the folds of a seed never change (PCG is specified).
	if got := Folds(6, 5, 1); len(got) != 5 || len(got[0]) != 2 {
		t.Errorf("folds of 6 runs: %v", got)
	}
	if got := Folds(3, 5, 1); len(got) != 3 {
		t.Errorf("3 runs give %d folds, want 3", len(got))
	}
}

func TestEvaluateRefusesWhatItCannotScore(t *testing.T) {
	if _, err := Evaluate([]Run{peakRun(3, 1, 1, 1)}, Options{}); err == nil {
		t.Error("one run: want an error")
	}
	bad := peakRun(3, 1, 1, 1)
	bad.Perf[1] = nan
	if _, err := Evaluate([]Run{bad, bad}, Options{}); err == nil {
		t.Error("NaN performance: want an error")
	}
	short := peakRun(3, 1, 1, 1)
	short.Agreed = short.Agreed[:2]
	if _, err := Evaluate([]Run{short, short}, Options{}); err == nil {
		t.Error("a measure with the wrong number of rounds: want an error")
	}
}

func TestDialogueActNeverStopsWorseThanTheEndOnTraining(t *testing.T) {
	// p has a positive effect (its round's 0.8 is above the mean 0.6) but
	// stopping on it loses to running on to the last round's 1.
	p, q := Pair{"Propose", "Accept"}, Pair{"Evaluate", "Evaluate"}
	r := Run{Perf: []float64{0, 0.8, 1}, Pairs: []map[Pair]int{{q: 1}, {p: 1}, {q: 1}}}
	if c := Regress([]Run{r}, HigherIsBetter); c[0].Pair != p || c[0].Beta <= 0 {
		t.Fatalf("coefficients %+v: want p first and positive", c)
	}
	tr := TrainDialogueAct([]Run{r, r, r}, HigherIsBetter)
	if s := tr.stop(r); s.Round != 3 || s.Fired {
		t.Errorf("stop %+v (%s), want the last round, not fired", s, tr.Params)
	}
}
