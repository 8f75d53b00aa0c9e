package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Describer is an optional capability of an LLM: the endpoint it asks and
// what it sends by default, for a table's provenance.
type Describer interface {
	Describe() Endpoint
}

// Endpoint is what an LLM asks: its configured name, the model, and the
// sampling it sends unless a request says otherwise.
type Endpoint struct {
	Name        string
	Model       string
	Temperature *float64 // nil: the server's default
	MaxTokens   int      // 0: the server's default
}

// Provenance implements roundtable.Described for a table of schedule pr
// (nil: RoundTable's): the endpoint and model the agent asks, its
// sampling and memory, and the version of its prompts (PromptVersion).
func (a *Agent) Provenance(pr *roundtable.Protocol) roundtable.AgentProvenance {
	p := roundtable.AgentProvenance{Memory: a.opt.Memory, ContextChars: a.opt.ContextChars, Template: PromptVersion(pr, a.opt)}
	if a.opt.Memory == MemoryWindow {
		p.Window = a.opt.Window
	}
	if d, ok := a.llm.(Describer); ok {
		e := d.Describe()
		p.Endpoint, p.Model, p.Temperature, p.MaxTokens = e.Name, e.Model, e.Temperature, e.MaxTokens
	}
	if a.opt.Model != "" {
		p.Model = a.opt.Model
	}
	if a.opt.Temperature != nil {
		p.Temperature = a.opt.Temperature
	}
	if a.opt.MaxTokens > 0 {
		p.MaxTokens = a.opt.MaxTokens
	}
	if b, ok := pr.Briefing(); ok && b.Persona == roundtable.PersonaStance && a.opt.Signal != nil {
		p.PersonaSignal = a.opt.Signal.Model()
		if v, ok := a.opt.Signal.(interface{ Version() string }); ok {
			p.PersonaSignalVersion = v.Version()
		}
	}
	return p
}

// PromptVersion is the version of the prompts an agent with options opt
// writes at a table of schedule pr (nil: RoundTable's): the first 12 hex
// digits of a SHA-256 over every request it makes in the views of a
// reference table, one per phase of the schedule. It changes whenever the
// wording, layout or schema of a prompt the table asks does, and asks no
// model.
func PromptVersion(pr *roundtable.Protocol, opt Options) string {
	opt.Logger, opt.Signal = nil, nil
	rec := &transcript{h: sha256.New()}
	ag := New(rec, roundtable.TextTask{Topic: "how should the village share the river?"}, opt)
	for _, v := range referenceViews(pr) {
		_, _ = ag.Act(context.Background(), v) // each request is in the transcript; the answers are refusals
		ag.Forget(v.Table)
	}
	return hex.EncodeToString(rec.h.Sum(nil))[:12]
}

// transcript is an LLM that hashes every request it is asked and answers
// none.
type transcript struct {
	mu sync.Mutex
	h  hash.Hash
}

func (t *transcript) Complete(_ context.Context, req Request) (Response, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, m := range req.Messages {
		fmt.Fprintf(t.h, "%s\x00%s\x00", m.Role, m.Content)
	}
	if req.Schema != nil {
		fmt.Fprintf(t.h, "%s\x00%s\x00", req.Schema.Name, req.Schema.JSON)
	}
	fmt.Fprintf(t.h, "%s\x01", req.Output)
	return Response{}, &Error{Code: CodeRejected, Err: errors.New("a reference request")}
}

// referenceViews are the views of a reference table of schedule pr: one
// per step of the schedule (RoundTable's message, proposal and vote when
// pr is nil), each in round 2 of 3 after a round of every kind of record.
func referenceViews(pr *roundtable.Protocol) []roundtable.View {
	if pr == nil {
		return []roundtable.View{referenceView(roundtable.PhaseMessage), referenceView(roundtable.PhaseProposal), referenceView(roundtable.PhaseVote)}
	}
	var scale *roundtable.Scale
	for st := range pr.Steps() {
		if st.Scale != nil && scale == nil {
			scale = st.Scale
		}
	}
	var out []roundtable.View
	for st := range pr.Steps() {
		v := referenceView(st.Phase)
		v.Protocol, v.Params, v.Scale = pr.Name, pr.Params, scale
		if st.Scale != nil {
			v.Scale = st.Scale
		}
		if b, ok := pr.Briefing(); ok {
			v.Briefing = &b
		}
		switch st.Speakers {
		case roundtable.SpeakPair, roundtable.SpeakBoth:
			v.To, v.Turn = "b", []string{"a"}
		}
		out = append(out, v)
	}
	return out
}

// referenceView is the view of Ann, round 2 of 3 of a reference table, in
// phase.
func referenceView(phase roundtable.Phase) roundtable.View {
	people := []roundtable.Participant{
		{ID: "a", Name: "Ann", Kind: roundtable.Bot, Background: "A farmer with land by the river.", Goal: "Keep the water clean.", Stance: "Cautious."},
		{ID: "b", Name: "Ben", Kind: roundtable.Bot, Stance: "Sceptical of new rules."},
		{ID: "c", Name: "Cy", Kind: roundtable.Human},
	}
	dec := &roundtable.Candidate{ID: "B", Proposal: roundtable.Proposal{Text: "Take turns by day."}, Proposers: []string{"b"}}
	first := roundtable.RoundRecord{Round: 1,
		Messages: []roundtable.Message{{From: "a", Text: "We need a schedule."}, {From: "b", To: []string{"a"}, Text: "Days, then?"},
			{From: "a", To: []string{"b"}, Text: "Privately: I doubt it.", Private: true}},
		Surveys:    []roundtable.SurveyAnswer{{By: "a", Values: []float64{1}, Reason: "Days are fair."}},
		Proposals:  []roundtable.ProposalRecord{{By: "a", Proposal: roundtable.Proposal{Text: "Share by acreage."}}, {By: "b", Proposal: dec.Proposal}},
		Failures:   []roundtable.Failure{{Participant: "c", Phase: roundtable.PhaseProposal, Kind: "timeout"}},
		Candidates: []roundtable.Candidate{{ID: "A", Proposal: roundtable.Proposal{Text: "Share by acreage."}, Proposers: []string{"a"}}, *dec},
		Tally:      &roundtable.Tally{Rule: vote.Plurality, Winner: "B", Totals: map[string]json.Number{"A": "1", "B": "2"}, Counted: 3},
		Decision:   dec,
	}
	v := roundtable.View{Table: "reference", Title: "River", Brief: "Decide how the village shares the river.", Private: "You own the upstream field.",
		Rule: vote.Plurality, Mode: roundtable.Sealed, Self: people[0], Participants: people, Round: 2, Rounds: 3, Phase: phase, Seed: 1,
		History: []roundtable.RoundRecord{first}, Decision: dec, Own: &roundtable.Proposal{Text: "Share by acreage."},
		Current: roundtable.RoundRecord{Round: 2, Messages: []roundtable.Message{{From: "c", Text: "I can live with days."}}}}
	if phase == roundtable.PhaseVote {
		v.Candidates = []roundtable.Candidate{first.Candidates[0], {ID: "B", Proposal: dec.Proposal, Proposers: []string{"b", "c"}, Incumbent: true}}
	}
	return v
}
