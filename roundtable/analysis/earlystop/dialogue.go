package earlystop

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"
)

// Coef is one dialogue-act pair's OLS coefficient and its p-value.
type Coef struct {
	Pair  Pair
	Beta  float64
	P     float64 // two-sided; NaN when the residual has no degrees of freedom
	Count int     // rows of the regression with this pair
}

// Regress fits the OLS of App. C.7: one row per dialogue-act pair
// occurrence of a round, the pair one-hot encoded, the dependent variable
// the run's performance (as goodness: higher is better) in that round.
//
// Decision: the one-hot columns of every pair plus an intercept are
// collinear; we regress the centred dependent variable on the one-hot
// columns without an intercept, so a pair's coefficient is its rows' mean
// goodness minus the mean of all rows (its effect relative to the average
// round), with standard error s/sqrt(n_pair), s² the residual variance on
// N - P degrees of freedom, and a two-sided Student t p-value. Coefs are
// ordered by coefficient, largest first (ties by pair name).
func Regress(runs []Run, d Direction) []Coef {
	sums := map[Pair]float64{}
	counts := map[Pair]int{}
	var ys []float64
	var keys []Pair
	for _, r := range runs {
		for i, pairs := range r.Pairs {
			y := d.goodness(r.Perf[i])
			for p, n := range pairs {
				for range n {
					sums[p] += y
					counts[p]++
					ys = append(ys, y)
					keys = append(keys, p)
				}
			}
		}
	}
	if len(ys) == 0 {
		return nil
	}
	mean := 0.0
	for _, y := range ys {
		mean += y
	}
	mean /= float64(len(ys))
	ssr := 0.0
	for i, y := range ys {
		e := y - sums[keys[i]]/float64(counts[keys[i]])
		ssr += e * e
	}
	df := len(ys) - len(counts)
	out := make([]Coef, 0, len(counts))
	for p, n := range counts {
		c := Coef{Pair: p, Beta: sums[p]/float64(n) - mean, Count: n, P: math.NaN()}
		if df > 0 {
			se := math.Sqrt(ssr / float64(df) / float64(n))
			c.P = pValue(c.Beta, se, df)
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Coef) int {
		if a.Beta != b.Beta {
			if a.Beta > b.Beta {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Pair.String(), b.Pair.String())
	})
	return out
}

func pValue(beta, se float64, df int) float64 {
	if se == 0 {
		if beta == 0 {
			return 1
		}
		return 0
	}
	t := math.Abs(beta / se)
	return 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Survival(t)
}

// PValues are the p-value thresholds of the search; NaN stands for None
// (every pair is a candidate).
var PValues = []float64{0.05, 0.1, 0.2, math.NaN()}

// MaxTopDA bounds top_da. Decision: the paper leaves its range open; ten
// pairs keep the search small (at most 4 × 10 × 3 × 10 settings).
const MaxTopDA = 10

// ActRule is one setting of the dialogue-act stop: a round scores one
// point for every candidate pair that occurs in it at least CountPerRound
// times, and the table stops in the first round that reaches Score.
type ActRule struct {
	Candidates    []Pair
	PValue        float64 // NaN: None
	CountPerRound int
	Score         int
}

// String describes the setting.
func (a ActRule) String() string {
	p := "None"
	if !math.IsNaN(a.PValue) {
		p = fmt.Sprint(a.PValue)
	}
	names := make([]string, len(a.Candidates))
	for i, c := range a.Candidates {
		names[i] = c.String()
	}
	return fmt.Sprintf("top_da=%d p<%s count_per_round=%d score=%d pairs=%s", len(a.Candidates), p, a.CountPerRound, a.Score, strings.Join(names, ","))
}

func (a ActRule) stop(r Run) Stop {
	for i, pairs := range r.Pairs {
		score := 0
		for _, c := range a.Candidates {
			if pairs[c] >= a.CountPerRound {
				score++
			}
		}
		if score >= a.Score {
			return Stop{Round: i + 1, Fired: true}
		}
	}
	return runToEnd(r)
}

// candidates are the pairs with a positive coefficient whose p-value is
// below p (all of them for NaN), largest coefficient first.
func candidates(coefs []Coef, p float64) []Pair {
	var out []Pair
	for _, c := range coefs {
		if c.Beta > 0 && (math.IsNaN(p) || (!math.IsNaN(c.P) && c.P < p)) {
			out = append(out, c.Pair)
		}
	}
	return out
}

// TrainDialogueAct searches every setting (p-value threshold, top_da,
// count_per_round 1..3, score 1..top_da) on the training runs and keeps
// the one with the best mean training performance; the first found wins
// ties (stricter p-values, fewer pairs, lower counts and scores first).
// Decision: a setting must do strictly better on the training runs than
// running to the end; when none does (or no pair has a positive effect)
// the method never fires, rather than stopping worse than the baseline.
func TrainDialogueAct(train []Run, d Direction) Trained {
	coefs := Regress(train, d)
	var best *ActRule
	bestG := meanGoodness(train, runToEnd, d)
	for _, p := range PValues {
		cands := candidates(coefs, p)
		for top := 1; top <= min(len(cands), MaxTopDA); top++ {
			for count := 1; count <= 3; count++ {
				for score := 1; score <= top; score++ {
					a := ActRule{Candidates: cands[:top], PValue: p, CountPerRound: count, Score: score}
					if g := meanGoodness(train, a.stop, d); g > bestG {
						bestG, best = g, &a
					}
				}
			}
		}
	}
	if best == nil {
		return Trained{stop: runToEnd, Threshold: math.NaN(), Params: "no setting beats running to the end"}
	}
	return Trained{stop: best.stop, Threshold: float64(best.Score), Params: best.String()}
}
