package mediation

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

var _ roundtable.Described = (*Mediator)(nil)

// Provenance implements roundtable.Described: the endpoint and model the
// mediator asks, its temperature, and the version of its prompts, so
// that a table's provenance names the model that wrote its statements
// (and a run with another model never reuses the table).
func (m *Mediator) Provenance(*roundtable.Protocol) roundtable.AgentProvenance {
	var p roundtable.AgentProvenance
	if d, ok := m.LLM.(agent.Describer); ok {
		e := d.Describe()
		p.Endpoint, p.Model, p.Temperature, p.MaxTokens = e.Name, e.Model, e.Temperature, e.MaxTokens
	}
	if m.Model != "" {
		p.Model = m.Model
	}
	if m.Temperature != nil {
		p.Temperature = m.Temperature
	}
	p.Template = PromptVersion()
	return p
}

// PromptVersion is the version of the mediator's prompts: the first 12
// hex digits of a SHA-256 over its system text, its answer's schema and
// the draft and revision requests of a reference table. It changes
// whenever their wording does.
func PromptVersion() string {
	h := sha256.New()
	h.Write([]byte(mediatorSystem))
	h.Write(statementSchema)
	self := roundtable.Participant{ID: "m1", Parts: []roundtable.Part{roundtable.PartMediate}}
	v := roundtable.View{Brief: "QUESTION", Self: self, Participants: []roundtable.Participant{self}}
	h.Write([]byte(Prompt(v, []string{"TEXT"})))
	v.Decision = &roundtable.Candidate{Proposal: roundtable.Proposal{Text: "STATEMENT"}}
	h.Write([]byte(Prompt(v, []string{"TEXT"})))
	return hex.EncodeToString(h.Sum(nil))[:12]
}
