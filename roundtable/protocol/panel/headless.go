package panel

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// AgentKinds implements protocol.Agents: the lexicon-driven evaluator.
func (definition) AgentKinds() []string { return []string{"evaluator"} }

// Agent implements protocol.Agents: an evaluator with the table's alpha
// that cites the items' documents, sharing the protocol's VADER lexicon.
func (d definition) Agent(kind string, s protocol.Settings) (roundtable.Agent, error) {
	if kind != "evaluator" {
		return nil, fmt.Errorf("%q is not an agent of the %s protocol", kind, Name)
	}
	if err := protocol.NoBias(s, kind, Name); err != nil {
		return nil, err
	}
	if len(s.Temperatures) > 0 {
		return nil, fmt.Errorf("%s: the %s samples nothing; a temperature is for language-model judges (--agent llm)", s.Field("temperature"), kind)
	}
	ev := &Evaluator{Vader: d.lexicon(), Alpha: s.Alpha}
	if len(s.Docs) > 0 {
		m, err := NewMeter(ev.Vader)
		if err != nil {
			return nil, err
		}
		ev.Passages = map[string][]string{}
		for it, doc := range s.Docs {
			ev.Passages[it] = m.Passages(doc)
		}
	}
	return ev, nil
}

// Seats implements protocol.Headless: one judge per role (s.Roles, or the
// first of the default roles), named after it; its mental model of self is
// made from the role.
func (definition) Seats(s protocol.Settings, _ int64, k int) ([]roundtable.Participant, error) {
	roles, err := Roles(s, k)
	if err != nil {
		return nil, err
	}
	ps := make([]roundtable.Participant, k)
	for i := range ps {
		ps[i] = roundtable.Participant{ID: fmt.Sprintf("agent-%d", i+1), Name: roles[i], Kind: roundtable.Bot, Agent: s.Agent,
			Background: fmt.Sprintf("You are the %s on this evaluation panel.", roles[i])}
	}
	return ps, nil
}

// defaultRoles seat a panel when no roles are given.
func defaultRoles() []string {
	return []string{"CFO", "VP of Engineering", "Plant Manager", "HR Director", "Head of Sales", "Data Lead", "Legal Counsel"}
}

// Roles are one role per judge of k: s.Roles, checked, or the default
// roles in turn.
func Roles(s protocol.Settings, k int) ([]string, error) {
	given := s.Roles
	if len(given) == 0 {
		def := defaultRoles()
		out := make([]string, k)
		for i := range out {
			out[i] = def[i%len(def)]
			if i >= len(def) {
				out[i] += fmt.Sprintf(" %d", i/len(def)+1)
			}
		}
		return out, nil
	}
	if len(given) != k {
		return nil, fmt.Errorf("%s: %d roles for %d agents (--agents); give one role per judge", s.Field("roles"), len(given), k)
	}
	for i, r := range given {
		if strings.TrimSpace(r) == "" || slices.Contains(given[:i], r) {
			return nil, fmt.Errorf("%s: role %d (%q) is empty or given twice", s.Field("roles"), i+1, r)
		}
	}
	return given, nil
}

// Task implements protocol.Tasker: the brief with the items' documents.
func (definition) Task(s protocol.Settings) roundtable.Task {
	return task{TextTask: roundtable.TextTask{Topic: s.Question}, items: s.Items, docs: s.Docs}
}

// Instruments implements protocol.Instrumented: VADER's lexicon, which
// scores the sentiments, and the hashed TF-IDF keyword vectors of the
// quality metrics.
func (d definition) Instruments(protocol.Settings) []analysis.InstrumentVersion {
	v, h := d.lexicon(), embed.HashedTFIDF{}
	return []analysis.InstrumentVersion{{Instrument: sentiment.Instrument, Model: v.Model(), Version: v.Version()},
		{Instrument: "embedding", Model: h.Model(), Version: h.Version()}}
}

// Measure implements protocol.Headless: the sentiments and rankings, and
// the quality metrics: nuance always, drift when the judges stated mental
// models, and defensibility when the items have source documents.
func (d definition) Measure(protocol.Settings) (sim.Measure, error) {
	m, err := NewMeter(d.lexicon())
	if err != nil {
		return nil, err
	}
	return func(_ roundtable.Task, s *roundtable.State) sim.Measures {
		out := measure(s)
		// The offline embedding never fails but on a done context, and a
		// measure has none: Background is the whole of its life.
		q, err := m.Run(context.Background(), s)
		if err != nil {
			return out
		}
		out.Scalars["nuance"] = q.Nuance
		for it, n := range q.NuanceByItem {
			out.Scalars["nuance/"+it] = n
		}
		if q.HasDrift {
			out.Scalars["drift"] = q.Drift
			for who, d := range q.DriftBy {
				out.Scalars["drift/"+who] = d
			}
		}
		if q.Defended > 0 {
			out.Scalars["defensibility"], out.Scalars["supported"] = q.Defensibility, q.Supported
		}
		return out
	}, nil
}

// measure is a panel's sentiments after each round (a panel that stopped
// keeps its last) and its decisions: Borda points, valence tiers and
// gut-feeling points per item. A Facilitator's middle of the scale is no
// view and counts nowhere.
func measure(s *roundtable.State) sim.Measures {
	items := Items(s)
	m := sim.Measures{Series: map[string][]float64{}, Scalars: map[string]float64{
		"rounds": float64(len(s.Rounds)), "converged": boolf(s.EndReason == roundtable.EndConvergence)}}
	for _, r := range s.Rounds {
		sums, n := make([]float64, len(items)), 0
		for _, a := range r.Surveys {
			if roundtable.IsNoOpinion(a.Reason) {
				continue
			}
			n++
			for i, v := range a.Values {
				sums[i] += v
			}
		}
		for i, it := range items {
			m.Series["S/"+it] = append(m.Series["S/"+it], sums[i]/math.Max(1, float64(n)))
		}
	}
	for _, it := range items {
		ser := m.Series["S/"+it]
		for len(ser) > 0 && len(ser) < s.Config.Rounds {
			ser = append(ser, ser[len(ser)-1])
		}
		m.Series["S/"+it] = ser
	}
	final, gut := map[string][]float64{}, map[string][]float64{}
	for judge, ts := range trajectories(s, len(items)) {
		for _, t := range ts {
			final[judge] = append(final[judge], t[len(t)-1])
			gut[judge] = append(gut[judge], Conviction(t))
		}
	}
	borda, gutPts := Borda(final, len(items)), Borda(gut, len(items))
	for i, it := range items {
		m.Scalars["borda/"+it], m.Scalars["gut/"+it] = borda[i], gutPts[i]
		tiers := 0.0
		for _, v := range final {
			tiers += float64(Tier(v[i]))
		}
		m.Scalars["tier/"+it] = tiers / math.Max(1, float64(len(final)))
	}
	return m
}

func boolf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Units implements protocol.Headless.
func (definition) Units() map[string]string {
	return map[string]string{
		"rounds": "rounds until the stop rule", "converged": "1 if every sentiment change fell below the tolerance, else 0",
		"S/*": "mean sentiment of the judges on -1..1 after each round (a panel that stopped keeps its last)", "borda/*": "Borda points (top item n, last 1) summed over judges",
		"gut/*": "Borda points on conviction summed over judges", "tier/*": "mean valence tier (1 best, 3 worst)",
		"nuance":        "distinct words among the top 10 words of 5 LDA topics of the judges' arguments about an item, mean over items",
		"nuance/*":      "distinct words among the top 10 words of 5 LDA topics fitted to all judges' arguments about the item over the run",
		"drift":         "1 − cosine similarity (hashed TF-IDF of keywords) of successive mental models of self, mean over rounds and judges; 0 = unchanged",
		"drift/*":       "the judge's drift: 1 − cosine of successive mental models, mean over rounds",
		"defensibility": "cosine similarity (hashed TF-IDF of keywords) of an argument to its best passage of the item's source document, 0 below 0.2, mean over arguments",
		"supported":     "share of arguments whose best passage of the item's source document reaches cosine 0.2",
	}
}

// Tag implements protocol.Headless: a panel's conditions are its grid
// cells, named by the experiment.
func (definition) Tag(protocol.Settings) string { return "" }
