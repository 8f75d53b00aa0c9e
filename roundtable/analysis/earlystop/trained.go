package earlystop

import (
	"fmt"
	"math"
)

// Trained is what a method learned on training runs: the stop it applies
// to test runs, its threshold (the checkpoint round, the information
// difference, the dialogue-act score; NaN when none) and its parameters
// in words.
type Trained struct {
	stop      stopper
	Threshold float64
	Params    string
}

// TrainCheckpoint learns the validation checkpoint: the mean over the
// training runs of the round with the best performance (the earliest of
// equals), rounded half up.
func TrainCheckpoint(train []Run, d Direction) Trained {
	if len(train) == 0 {
		return Trained{stop: runToEnd, Threshold: math.NaN(), Params: "no training runs"}
	}
	sum := 0.0
	for _, r := range train {
		sum += float64(d.best(r))
	}
	c := int(math.Floor(sum/float64(len(train)) + 0.5))
	return Trained{stop: atRound(c), Threshold: float64(c), Params: fmt.Sprintf("round %d", c)}
}

// TrainInfoDiff learns the information-difference threshold: the mean
// over the training runs of the information difference at each run's best
// round (runs whose best round has none, such as round 1, do not count).
// With no such run the method never fires.
func TrainInfoDiff(train []Run, d Direction) Trained {
	sum, n := 0.0, 0
	for _, r := range train {
		b := d.best(r)
		if b <= len(r.InfoDiff) && !math.IsNaN(r.InfoDiff[b-1]) {
			sum += r.InfoDiff[b-1]
			n++
		}
	}
	if n == 0 {
		return Trained{stop: runToEnd, Threshold: math.NaN(), Params: "no best round has an information difference"}
	}
	t := sum / float64(n)
	return Trained{stop: belowThreshold(t), Threshold: t, Params: fmt.Sprintf("threshold %.4f from %d runs", t, n)}
}

// meanGoodness is the mean goodness of runs stopped by s.
func meanGoodness(runs []Run, s stopper, d Direction) float64 {
	sum := 0.0
	for _, r := range runs {
		sum += d.goodness(r.Perf[s(r).Round-1])
	}
	return sum / float64(len(runs))
}
