package mediation

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Agreement is how far a mediation table agreed on its statement
// (docs/protocol.md#mediation): the endorsements of the final statement
// (1..7, the final survey), the share of the last ranking's counted
// ballots that put the statement first, and how far it moved from the
// first round's winning draft.
type Agreement struct {
	Statement    string    // the group's statement: the last decision, "" for none
	FirstDraft   string    // the first round's winner
	Endorsements []float64 // each answer of the endorsement survey
	FirstChoice  float64   // share of the last vote's ranked ballots with Statement first (NaN: none)
	Ballots      int       // the last vote's counted ballots
	Rounds       int       // rounds played (1 + critique rounds)
	LeftOut      int       // people who wrote, or ranked, in no step at some round
}

// Agree reads a table's agreement from its state.
func Agree(s *roundtable.State) Agreement {
	var a Agreement
	if s.Decision != nil {
		a.Statement = s.Decision.Proposal.Text
	}
	for _, r := range s.Rounds {
		if r.Tally != nil && r.Decision != nil && a.FirstDraft == "" {
			a.FirstDraft = r.Decision.Proposal.Text
		}
		for _, ans := range r.Surveys {
			if len(ans.Values) > 0 && !roundtable.IsNoOpinion(ans.Reason) {
				a.Endorsements = append(a.Endorsements, ans.Values[0])
			}
		}
		if r.Tally != nil {
			a.Rounds = r.Round
		}
	}
	a.FirstChoice, a.Ballots = firstChoice(s)
	a.LeftOut = leftOut(s)
	return a
}

// firstChoice is the share of the last tallied vote's ballots that rank
// (or choose) its winner first, and how many ballots named a candidate.
func firstChoice(s *roundtable.State) (float64, int) {
	for i := len(s.Rounds) - 1; i >= 0; i-- {
		t := s.Rounds[i].Tally
		if t == nil {
			continue
		}
		n, first := 0, 0
		for _, b := range t.Ballots {
			top := b.Choice
			if len(b.Ranking) > 0 {
				top = b.Ranking[0]
			}
			if b.Abstain || top == "" {
				continue
			}
			n++
			if top == t.Winner {
				first++
			}
		}
		if n == 0 || t.Winner == "" {
			return math.NaN(), n
		}
		return float64(first) / float64(n), n
	}
	return math.NaN(), 0
}

// leftOut counts, over the rounds, the people (voters) with no ballot in
// a round that was tallied: each is left out of that round's ranking.
func leftOut(s *roundtable.State) int {
	n := 0
	for _, r := range s.Rounds {
		if r.Tally == nil {
			continue
		}
		voted := map[string]bool{}
		for _, b := range r.Tally.Ballots {
			voted[b.Voter] = true
		}
		for _, p := range s.Participants {
			if p.Plays(roundtable.PartVote) && !voted[p.ID] {
				n++
			}
		}
	}
	return n
}

// Movement is the cosine distance between the embeddings of the first
// draft and the statement, 1 − cos (0: the same text); ok is false when
// either is missing.
func Movement(ctx context.Context, e embed.Embedder, a Agreement) (float64, bool, error) {
	if a.FirstDraft == "" || a.Statement == "" {
		return 0, false, nil
	}
	if a.FirstDraft == a.Statement {
		return 0, true, nil // unchanged, exactly (1 − cos would leave rounding noise)
	}
	vs, err := e.Embed(ctx, []string{a.FirstDraft, a.Statement})
	if err != nil {
		return 0, false, fmt.Errorf("embedding the first draft and the statement with %s: %w", e.Model(), err)
	}
	cos, err := embed.Cosine(vs[0], vs[1])
	if err != nil {
		return 0, false, err
	}
	// Rounding leaves 1 − cos a few ulps off 0 for texts that embed alike.
	if d := 1 - cos; d > 1e-12 {
		return d, true, nil
	}
	return 0, true, nil
}

// Scalars are a's figures: endorsement mean, its distribution
// (endorse/1 .. endorse/7), first_choice, ballots, rounds and left_out.
func (a Agreement) Scalars() map[string]float64 {
	out := map[string]float64{"endorsements": float64(len(a.Endorsements)), "ballots": float64(a.Ballots),
		"rounds": float64(a.Rounds), "left_out": float64(a.LeftOut), "statement": boolf(a.Statement != "")}
	if len(a.Endorsements) > 0 {
		out["endorsement"] = sim.MeanSE(a.Endorsements).Mean
	}
	for k := 1; k <= 7; k++ {
		c := 0.0
		for _, e := range a.Endorsements {
			if int(e) == k {
				c++
			}
		}
		out["endorse/"+strconv.Itoa(k)] = c
	}
	if !math.IsNaN(a.FirstChoice) {
		out["first_choice"] = a.FirstChoice
	}
	return out
}

// Units are the units of the figures.
func Units() map[string]string {
	return map[string]string{
		"endorsement":  "mean endorsement of the group's statement, 1 (not at all) to 7 (completely)",
		"endorse/*":    "people who answered that level of endorsement",
		"endorsements": "endorsement answers",
		"first_choice": "share of the last ranking's ballots with the statement first, 0..1",
		"ballots":      "ballots of the last ranking",
		"rounds":       "rounds played (1 + critique rounds)",
		"left_out":     "ballots missing over the rankings (a person who did not rank in time is left out of that step)",
		"statement":    "1 if the table reached a group statement, else 0",
		"movement":     "cosine distance 1 − cos between the embeddings of the first draft and the final statement",
	}
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
