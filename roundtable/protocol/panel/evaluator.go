package panel

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Evaluator is the panel's model-free judge, driven by a lexicon. Each judge starts with a
// prior per item (drawn from the seed and its persona); each round it
// aims between its prior and the sentiment VADER reads in what its peers
// said of the item last round, writes the lexicon phrase whose VADER score
// is nearest that aim, and reports S_i(t) = alpha*S_O + (1-alpha)*S_i(t-1)
// with S_O the VADER score of its own phrase (Sentimental Agents' update).
//
// Each message also restates the judge's mental model of self (Say.Self),
// made from its role (its participant name) by Restate: the role
// vocabulary's criteria most salient in what its peers said last round.
// When the items have source documents (Passages), each opinion cites the
// passage that best fits those criteria (Evidence).
type Evaluator struct {
	Vader *sentiment.Vader
	Alpha float64 // 0 means sentiment.DefaultAlpha
	// Passages are the sentences of each item's source document, by item.
	Passages map[string][]string
}

var _ roundtable.Agent = (*Evaluator)(nil)

// phrases are the evaluator's lexicon, from warm to cold.
func phrases() []string {
	return []string{
		"%s is an outstanding, excellent fit and I strongly recommend them.",
		"%s is a good fit with clear strengths.",
		"%s is a solid choice.",
		"%s is acceptable.",
		"%s has some weak spots.",
		"%s is a poor fit with serious problems.",
		"%s is a terrible, disappointing fit and I would reject them.",
	}
}

// Act implements roundtable.Agent.
func (e *Evaluator) Act(_ context.Context, v roundtable.View) (roundtable.Action, error) {
	items := panelItems(v)
	switch v.Phase {
	case roundtable.PhaseMessage:
		model := Restate(v.Self.Name, lastHeard(v))
		lines := make([]string, len(items))
		for i, it := range items {
			lines[i] = e.phraseFor(it, e.aim(v, i, it))
			if c, p := Evidence(model, e.Passages[it], v.Round); p != "" {
				lines[i] += fmt.Sprintf(" On %s's %s: %s", it, c, p)
			}
		}
		return roundtable.Say{Text: strings.Join(lines, " "), Self: &model}, nil
	case roundtable.PhaseSurvey:
		return e.report(v, items), nil
	}
	return nil, fmt.Errorf("offline evaluator: no action in the %s phase", v.Phase)
}

func (e *Evaluator) report(v roundtable.View, items []string) roundtable.Action {
	prev := v.LastReport()
	own := ownMessage(v)
	vals := make([]float64, len(items))
	for i, it := range items {
		so := e.Vader.Polarity(sentenceAbout(own, it)).Compound
		vals[i] = so
		if len(prev) == len(items) {
			a := e.Alpha
			if a == 0 {
				a = sentiment.DefaultAlpha
			}
			vals[i] = sentiment.Update(prev[i], so, a)
		}
		vals[i] = math.Max(-1, math.Min(1, vals[i]))
	}
	return roundtable.Report{Values: vals, Reason: "sentiment of my own statement, updated"}
}

// aim is between the judge's prior on item i and its peers' sentiment on
// it in the previous round.
func (e *Evaluator) aim(v roundtable.View, i int, item string) float64 {
	prior := protocol.Rand(v, "prior:"+item).Float64()*2 - 1
	if len(v.History) == 0 {
		return prior
	}
	var sum float64
	n := 0
	for _, m := range v.History[len(v.History)-1].Messages {
		if m.From == v.Self.ID {
			continue
		}
		if s := sentenceAbout(m.Text, item); s != "" {
			sum += e.Vader.Polarity(s).Compound
			n++
		}
	}
	if n == 0 {
		return prior
	}
	return (prior + sum/float64(n)) / 2
}

func (e *Evaluator) phraseFor(item string, aim float64) string {
	best, bestD := "", math.Inf(1)
	for _, ph := range phrases() {
		s := fmt.Sprintf(ph, item)
		if d := math.Abs(e.Vader.Polarity(s).Compound - aim); d < bestD {
			best, bestD = s, d
		}
	}
	return best
}

// lastHeard are the peers' messages of the previous round.
func lastHeard(v roundtable.View) []string {
	if len(v.History) == 0 {
		return nil
	}
	var out []string
	for _, m := range v.History[len(v.History)-1].Messages {
		if m.From != v.Self.ID {
			out = append(out, m.Text)
		}
	}
	return out
}

func panelItems(v roundtable.View) []string {
	if v.Scale != nil && len(v.Scale.Items) > 0 {
		return v.Scale.Items
	}
	return []string{"the proposal"}
}

func ownMessage(v roundtable.View) string {
	for _, m := range v.Current.Messages {
		if m.From == v.Self.ID {
			return m.Text
		}
	}
	return ""
}

// sentenceAbout returns the sentence of text that starts with item.
func sentenceAbout(text, item string) string {
	for _, s := range strings.SplitAfter(text, ".") {
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, item+" ") {
			return s
		}
	}
	return ""
}
