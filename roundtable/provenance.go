package roundtable

import (
	"runtime/debug"
	"slices"
	"strings"
)

// Provenance is what made a table beyond its rules: the software that
// created it and what each model-driven seat thinks with. It is recorded
// in the table's config (TableCreated); the models that answered are
// learned as the table runs, in each action's Usage.Model.
type Provenance struct {
	Software Software `json:"software"`
	// Agents are the seats that a language model plays, by participant
	// ID; seats of model-free agents (whose Participant.Agent names their
	// kind) are not listed.
	Agents map[string]AgentProvenance `json:"agents,omitempty"`
}

func (p Provenance) clone() Provenance {
	p.Agents = cloneMap(p.Agents, func(a AgentProvenance) AgentProvenance {
		a.Temperature = clonePtr(a.Temperature, func(t float64) float64 { return t })
		return a
	})
	return p
}

// Software is the build of roundtable that created a table.
type Software struct {
	// Version is the module version of the build ("devel" for a build
	// from a source tree).
	Version string `json:"version"`
	// Revision is the VCS commit of the build, "unknown" when the build
	// did not record it (go build -buildvcs=false, go test, go run);
	// Modified says the tree had uncommitted changes.
	Revision string `json:"revision"`
	Modified bool   `json:"modified,omitempty"`
}

// UnknownRevision is Software.Revision of a build that recorded no VCS
// revision.
const UnknownRevision = "unknown"

// AgentProvenance is what a language-model seat thinks with: the recipe
// of its agent. Two tables whose seats have equal AgentProvenance ask the
// same model the same way.
type AgentProvenance struct {
	Endpoint string `json:"endpoint"` // the [[llm]] endpoint's name
	Model    string `json:"model"`    // the model asked for
	// Temperature is the sampling temperature sent; nil leaves the
	// server's default. MaxTokens bounds an answer (0: the server's).
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	// Memory is the agent's memory policy, Window and ContextChars its
	// size where the policy has one.
	Memory       string `json:"memory,omitempty"`
	Window       int    `json:"window,omitempty"`
	ContextChars int    `json:"context_chars,omitempty"`
	// Template is the version of the agent's prompts: a hash of their
	// text, which changes whenever the wording does.
	Template string `json:"template,omitempty"`
	// PersonaSignal is the opinion signal classifier a chatroom seat's
	// persona follows (docs/protocol.md#chatroom); "" for a fixed persona.
	PersonaSignal string `json:"persona_signal,omitempty"`
	// PersonaSignalVersion is the version of the classifier's prompts or
	// lexicon (a hash of their text).
	PersonaSignalVersion string `json:"persona_signal_version,omitempty"`
}

// Described is an Agent that says what it thinks with at a table of
// schedule pr (nil: RoundTable's), for the table's provenance: a
// language-model agent, or a wrapper forwarding one's.
type Described interface {
	Provenance(pr *Protocol) AgentProvenance
}

// ProvenanceOf is the provenance of a's seat at a table of schedule pr:
// ok is false for an agent that does not describe itself (a model-free
// one).
func ProvenanceOf(a Agent, pr *Protocol) (AgentProvenance, bool) {
	d, ok := a.(Described)
	if !ok {
		return AgentProvenance{}, false
	}
	return d.Provenance(pr), true
}

// RunningSoftware is the build of the running program, as its build
// information records it: a source tree's or test build's revision is
// UnknownRevision.
func RunningSoftware() Software {
	sw := Software{Version: "devel", Revision: UnknownRevision}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return sw
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		sw.Version = v
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if s.Value != "" {
				sw.Revision = s.Value
			}
		case "vcs.modified":
			sw.Modified = s.Value == "true"
		}
	}
	return sw
}

// mergeModels joins the model names of two usages: each distinct name
// once, sorted, comma-separated ("" when neither names one).
func mergeModels(a, b string) string {
	switch {
	case b == "" || a == b:
		return a
	case a == "":
		return b
	}
	names := append(strings.Split(a, ","), strings.Split(b, ",")...)
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ",")
}

// Models splits a Usage.Model into its distinct names.
func Models(model string) []string {
	if model == "" {
		return nil
	}
	return strings.Split(model, ",")
}
