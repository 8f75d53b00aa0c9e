package mediation

import (
	"context"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// AgentKinds implements protocol.Agents: the model-free stitcher.
func (definition) AgentKinds() []string { return []string{KindStitch} }

// Agent implements protocol.Agents.
func (definition) Agent(kind string, s protocol.Settings) (roundtable.Agent, error) {
	if kind != KindStitch {
		return nil, fmt.Errorf("%q is not a mediation agent", kind)
	}
	if err := protocol.NoBias(s, kind, Name); err != nil {
		return nil, err
	}
	return Stitch{}, nil
}

// Seats implements protocol.Headless: k people with stances drawn by
// s.Stances, then the mediator's seats (s.Drafts of them). Under
// --agent llm the people are language models and so is the mediator
// (kind stitch:llm, on the first endpoint); otherwise everyone is
// model-free.
func (definition) Seats(s protocol.Settings, seed int64, k int) ([]roundtable.Participant, error) {
	n, err := drafts(s)
	if err != nil {
		return nil, err
	}
	ps, _, err := protocol.StanceSeats(s, seed, k)
	if err != nil {
		return nil, err
	}
	kind := KindStitch
	if s.Agent == "llm" {
		kind = KindStitch + ":llm"
	}
	for i := range ps {
		ps[i].Parts = []roundtable.Part{roundtable.PartSpeak, roundtable.PartVote, roundtable.PartJudge}
	}
	return append(ps, MediatorSeats(n, kind)...), nil
}

// Measure implements protocol.Headless: the agreement figures, with the
// text movement measured offline (hashed TF-IDF).
func (definition) Measure(protocol.Settings) (sim.Measure, error) {
	return func(_ roundtable.Task, s *roundtable.State) sim.Measures {
		m, _ := measure(context.Background(), s, embed.HashedTFIDF{})
		return m
	}, nil
}

// measure is a table's figures, the text movement by e.
func measure(ctx context.Context, s *roundtable.State, e embed.Embedder) (sim.Measures, error) {
	a := Agree(s)
	sc := a.Scalars()
	d, ok, err := Movement(ctx, e, a)
	if ok {
		sc["movement"] = d
	}
	return sim.Measures{Scalars: sc}, err
}

// Units implements protocol.Headless.
func (definition) Units() map[string]string { return Units() }

// Tag implements protocol.Headless: the stances and drafts, unless the
// defaults.
func (definition) Tag(s protocol.Settings) string {
	t := protocol.StancesTag(s)
	if s.Drafts != 0 && s.Drafts != DefaultDrafts {
		t = t.Add("n", fmt.Sprint(s.Drafts))
	}
	return t.String()
}

// Joins implements protocol.Analyst: the protocol's own report.
func (definition) Joins() string { return Name }

// Analyze implements protocol.Analyst: the agreement figures, the text
// movement by the analysis's embeddings (a model's when analyze is given
// --embedding llm, else hashed TF-IDF).
func (definition) Analyze(ctx context.Context, t protocol.Table, in protocol.Instruments) (protocol.Measured, error) {
	var e embed.Embedder = embed.HashedTFIDF{}
	if in.Embedder != nil {
		e = in.Embedder
	}
	params := protocol.Params(t.State)
	params["movement_from"] = e.Model()
	m, err := measure(ctx, t.State, e)
	return protocol.Measured{Measures: m, Params: params}, err
}

// Report implements protocol.Reporter: the agreement per condition and
// the endorsement distribution.
func (definition) Report(_ context.Context, runs *protocol.Runs) ([]report.Artifact, []string, error) {
	c := runs.Measures
	keys := []string{"statement", "endorsement", "first_choice", "movement", "rounds", "ballots", "left_out", "endorsements"}
	t := c.Table("mediation_agreement", "Mediation: agreement on the group's statement",
		"Per condition: tables that reached a statement, mean endorsement of the final statement (1..7, the final survey), "+
			"the share of the last ranking's ballots with the statement first, the text movement from the first round's winning draft to the final statement "+
			"(cosine distance of their embeddings; movement_from names the embeddings), rounds played, ballots of the last ranking and ballots missing over the rankings.", keys)
	t.CSV = protocol.WithColumns(t.CSV, runs.Params, []string{"movement_from", ParamDrafts})
	var dist []string
	for k := 1; k <= 7; k++ {
		dist = append(dist, fmt.Sprintf("endorse/%d", k))
	}
	d := c.Table("mediation_endorsement", "Mediation: endorsement distribution",
		"Per condition: how many people answered each level of endorsement of the final statement, 1 (not at all) to 7 (completely), mean per table.", dist)
	return []report.Artifact{t, d}, nil, nil
}

// ModelSeat implements protocol.Modeller: a mediator seat of kind
// stitch:llm[:ENDPOINT].
func (definition) ModelSeat(p roundtable.Participant) (string, bool) {
	rest, ok := strings.CutPrefix(p.Agent, KindStitch+":llm")
	if !ok || !p.Mediates() || rest != "" && !strings.HasPrefix(rest, ":") {
		return "", false
	}
	return strings.TrimPrefix(rest, ":"), true
}

// ModelAgent implements protocol.Modeller: the language-model mediator.
func (d definition) ModelAgent(p roundtable.Participant, llm agent.LLM, model string, temperature *float64) (roundtable.Agent, bool) {
	if _, ok := d.ModelSeat(p); !ok {
		return nil, false
	}
	return &Mediator{LLM: llm, Model: model, Temperature: temperature}, true
}
