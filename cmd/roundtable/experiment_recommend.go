package main

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
	"github.com/roundtable-ai/roundtable/roundtable/task/recommend"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// recommendExperiment makes e, with its language-model agents, play the
// recommendation task on --data.
func recommendExperiment(e *experiment, f simFlags) (*experiment, error) {
	rd, err := loadRecommendation(f)
	if err != nil {
		return nil, err
	}
	e.name, e.measure, e.print = "recommendation-llm", measureRecommend, rd.print
	e.task = rd.task
	return e, nil
}

// recommendData is the data of a recommendation sim: the cases and the
// baselines on them.
type recommendData struct {
	ds    *recommend.Dataset
	cases []recommend.Case
	knn   *recommend.KNN
	print func(w io.Writer, rules []vote.Rule, rep simReport)
}

func (rd recommendData) task(i int, _ int64) (roundtable.Task, error) {
	return recommend.NewTask(rd.ds, rd.cases[i]), nil
}

// loadRecommendation reads --data, draws --runs cases and scores the
// always-4 and collaborative-filtering baselines on them.
func loadRecommendation(f simFlags) (recommendData, error) {
	if f.data == "" {
		return recommendData{}, usagef("--data: the recommendation task needs the MovieLens-100k directory (u.data, u.item, u.user, u1.base, u1.test)")
	}
	ds, err := recommend.Load(f.data)
	if err != nil {
		return recommendData{}, fmt.Errorf("--data: %w", err)
	}
	cases := recommend.Cases(ds, f.runs, f.seed)
	if len(cases) < f.runs {
		return recommendData{}, usagef("--runs: the test set has only %d usable cases", len(cases))
	}
	knn := recommend.NewKNN(ds, ds.Factors(), recommend.DefaultNeighbours)
	knnMAE, knnRMSE := recommend.Evaluate(knn, cases)
	fourMAE, fourRMSE := recommend.Evaluate(recommend.AlwaysFour, cases)
	rd := recommendData{ds: ds, cases: cases, knn: knn}
	rd.print = func(w io.Writer, rules []vote.Rule, rep simReport) {
		printRecommend(w, rules, rep)
		fmt.Fprintf(w, "baselines on the same %d cases: always 4: MAE %.3f RMSE %.3f; collaborative filtering (kNN, NMF similarity): MAE %.3f RMSE %.3f\n",
			len(cases), fourMAE, fourRMSE, knnMAE, knnRMSE)
	}
	return rd, nil
}

// recommendBaseline runs recommendation tables with model-free agents
// (recommend.BaselineAgents): seat i plays the predictor of its private
// table, i mod 3.
func recommendBaseline(f simFlags) (*experiment, error) {
	rd, err := loadRecommendation(f)
	if err != nil {
		return nil, err
	}
	return &experiment{
		name: "recommendation-baseline", task: rd.task, measure: measureRecommend, print: rd.print,
		people: func(k int) []roundtable.Participant { return seats(k, "baseline") },
		agents: func(task roundtable.Task, ps []roundtable.Participant) (map[string]roundtable.Agent, error) {
			ags := recommend.BaselineAgents(rd.knn, task.(*recommend.Task).Case())
			m := map[string]roundtable.Agent{}
			for i, p := range ps {
				m[p.ID] = ags[i%3]
			}
			return m, nil
		},
	}, nil
}

// measureRecommend: the error of the decision in force after each round
// (a round with nothing decided counts as the "always 4" prediction).
func measureRecommend(_ roundtable.Task, s *roundtable.State) sim.Measures {
	c, err := recommend.CaseOf(s.Config.Task) // from the log: an export re-scores the same way
	if err != nil {
		return sim.Measures{Scalars: map[string]float64{"format_errors": math.NaN()}}
	}
	truth := float64(c.Rating)
	abs, sq := make([]float64, s.Config.Rounds), make([]float64, s.Config.Rounds)
	pred := 4.0
	for r := range abs {
		if r < len(s.Rounds) && s.Rounds[r].Decision != nil {
			if v, err := recommend.ParseRating(s.Rounds[r].Decision.Proposal); err == nil {
				pred = float64(v)
			}
		}
		abs[r], sq[r] = math.Abs(pred-truth), (pred-truth)*(pred-truth)
	}
	m := sim.Measures{Series: map[string][]float64{"abs_error": abs, "sq_error": sq, "coverage": coverage(s)}, Scalars: map[string]float64{}}
	addFormatErrors(m, s)
	return m
}

func printRecommend(w io.Writer, rules []vote.Rule, rep simReport) {
	fmt.Fprintf(w, "Recommendation (MovieLens), %d agents, %d rounds, %d cases per rule: MAE / RMSE of the decision per round\n", rep.Agents, rep.Rounds, rep.Runs)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "RULE\t")
	for r := 1; r <= rep.Rounds; r++ {
		fmt.Fprintf(tw, "R%d\t", r)
	}
	fmt.Fprintln(tw, "FAILED ACTIONS\t")
	for _, rule := range rules {
		s := rep.Rules[string(rule)].Summary
		fmt.Fprintf(tw, "%s\t", rule)
		for i := range s.Series["abs_error"] {
			fmt.Fprintf(tw, "%.2f / %.2f\t", s.Series["abs_error"][i].Mean, math.Sqrt(s.Series["sq_error"][i].Mean))
		}
		fmt.Fprintf(tw, "%s\t\n", failedActions(s))
	}
	_ = tw.Flush()
	printCoverage(w, rules, rep)
	printFormatErrors(w, rules, rep)
}
