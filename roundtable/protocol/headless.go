package protocol

import (
	"fmt"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Agents is a protocol with model-free agents, which need no language
// model: a table of the protocol runs with nothing but the binary.
type Agents interface {
	// AgentKinds are the kinds of the protocol's model-free agents, its
	// default first.
	AgentKinds() []string
	// Agent returns the model-free agent of kind for a table with
	// settings s; the zero Settings take the papers' defaults. It reports
	// a setting its agents cannot play (a confirmation bias, say), named.
	Agent(kind string, s Settings) (roundtable.Agent, error)
}

// Headless is a protocol that runs headless (roundtable sim): how a run's
// seats are filled, what is measured of an ended table, and in what units.
type Headless interface {
	Agents
	// Seats are the k seats of the run seeded with seed, played by agents
	// of kind s.Agent (a model-free kind or "llm", which a persona is
	// written for). An error names the setting at fault.
	Seats(s Settings, seed int64, k int) ([]roundtable.Participant, error)
	// Measure is what sim measures of an ended table with settings s.
	Measure(s Settings) (sim.Measure, error)
	// Units are the units of the measures' figures; a key ending in "/*"
	// covers a family ("S/*").
	Units() map[string]string
	// Tag names the condition of s in table IDs ("" or "-st_mixed..."),
	// so runs of different conditions in one directory neither collide
	// nor resume each other.
	Tag(s Settings) string
}

// Instrumented is a headless protocol whose measures read texts with
// instruments (a lexicon, an embedding): it names what its measures of
// tables with settings s are made with, for summary.json.
type Instrumented interface {
	Instruments(s Settings) []analysis.InstrumentVersion
}

// Tasker is a headless protocol whose tables need more than a text task
// on the question (the panel's items with their documents).
type Tasker interface {
	Task(s Settings) roundtable.Task
}

// Asker is a protocol whose question is not s.Question as given (the
// dyads' built-in claims).
type Asker interface {
	Question(s Settings) string
}

// Question is what a table of protocol p with settings s is about.
func Question(p Protocol, s Settings) string {
	if a, ok := p.(Asker); ok {
		return a.Question(s)
	}
	return s.Question
}

// Agent returns the model-free agent of kind from whichever registered
// protocol has it, with the papers' defaults (a live table's); ok is
// false when no protocol has an agent of that kind.
func Agent(kind string) (ag roundtable.Agent, ok bool, err error) {
	for _, p := range All() {
		if a, has := p.(Agents); has && slices.Contains(a.AgentKinds(), kind) {
			ag, err = a.Agent(kind, Settings{})
			return ag, true, err
		}
	}
	return nil, false, nil
}

// AgentProtocols are the names of the protocols whose model-free agents
// include kind, sorted.
func AgentProtocols(kind string) []string {
	var out []string
	for _, p := range All() {
		if a, ok := p.(Agents); ok && slices.Contains(a.AgentKinds(), kind) {
			out = append(out, p.Name())
		}
	}
	return out
}

// NoBias refuses a confirmation bias for the model-free agents of kind at
// protocol, which have none.
func NoBias(s Settings, kind, protocol string) error {
	if s.ConfirmationBias == "" || s.ConfirmationBias == opinion.BiasNone {
		return nil
	}
	return fmt.Errorf("%s: the %s agents of the %s protocol have no confirmation bias (dyads agents and --agent llm do)", s.Field("confirmation_bias"), kind, protocol)
}
