package recommend

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// PredictorAgent is a model-free participant of a recommendation table: it
// holds one prediction of the case's rating and deliberates with it. It
// says its estimate, proposes it rounded to whole stars, and votes by
// distance from it (the nearest candidate first). A *PredictorAgent is
// safe for concurrent use.
type PredictorAgent struct {
	Name string  // what the estimate is, for its message: "always 4"
	Pred float64 // the prediction, 1..5
}

var _ roundtable.Agent = (*PredictorAgent)(nil)

// BaselineAgents are the model-free agents of a table for case c, one per
// seat in PrivateBrief order, each predicting from what its table shows:
// BasicInfo says the "always 4" baseline (it sees no ratings), UserHistory
// the user's mean training rating, MovieHistory the KNN prediction (it
// sees the similar users' ratings of the movie).
func BaselineAgents(knn *KNN, c Case) [3]*PredictorAgent {
	mean, ok := knn.means[c.User]
	if !ok {
		mean = knn.global
	}
	return [3]*PredictorAgent{
		{Name: "always 4", Pred: float64(AlwaysFour)},
		{Name: "the user's mean rating", Pred: mean},
		{Name: "collaborative filtering over similar users", Pred: knn.Predict(c.User, c.Movie)},
	}
}

// Act implements roundtable.Agent.
func (a *PredictorAgent) Act(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	switch v.Phase {
	case roundtable.PhaseMessage:
		return roundtable.Say{Text: fmt.Sprintf("My estimate from %s is %.2f stars.", a.Name, a.Pred)}, nil
	case roundtable.PhaseProposal:
		return roundtable.Propose{Proposal: RatingProposal(a.stars()), Reasoning: fmt.Sprintf("%s predicts %.2f", a.Name, a.Pred)}, nil
	case roundtable.PhaseVote:
		return roundtable.Cast{Ballot: a.ballot(v.Rule, v.Candidates)}, nil
	case roundtable.PhaseSurvey:
		if v.Scale != nil {
			return roundtable.NoOpinion(*v.Scale, "a baseline predictor ("+a.Name+") holds no view on the question"), nil
		}
	}
	return nil, fmt.Errorf("recommend: no decision to make in phase %s", v.Phase)
}

func (a *PredictorAgent) stars() int { return int(min(5, max(1, math.Round(a.Pred)))) }

// ballot orders the candidates by distance from the prediction and fills
// in the rule's format: the nearest is chosen, ranked first, given every
// point and approved (with any other within half a star); scores fall by
// one per star of distance.
func (a *PredictorAgent) ballot(rule vote.Rule, cands []roundtable.Candidate) vote.Ballot {
	if len(cands) == 0 {
		return vote.Ballot{Abstain: true}
	}
	dist := make(map[string]float64, len(cands))
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i], dist[c.ID] = c.ID, 99
		if r, err := ParseRating(c.Proposal); err == nil {
			dist[c.ID] = math.Abs(float64(r) - a.Pred)
		}
	}
	slices.SortStableFunc(ids, func(x, y string) int { return cmpFloat(dist[x], dist[y]) })
	switch rule.Format() {
	case vote.FormatScores:
		s := map[string]int{}
		for _, id := range ids {
			s[id] = int(max(1, 5-math.Round(dist[id])))
		}
		return vote.Ballot{Scores: s}
	case vote.FormatRanking:
		return vote.Ballot{Ranking: ids}
	case vote.FormatPoints:
		return vote.Ballot{Points: map[string]int{ids[0]: len(ids)}}
	case vote.FormatApprove:
		out := []string{ids[0]}
		for _, id := range ids[1:] {
			if dist[id] <= 0.5 {
				out = append(out, id)
			}
		}
		return vote.Ballot{Approve: out}
	}
	return vote.Ballot{Choice: ids[0]}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// String describes the agent: its name and prediction.
func (a *PredictorAgent) String() string {
	return a.Name + " " + strconv.FormatFloat(a.Pred, 'f', 2, 64)
}
