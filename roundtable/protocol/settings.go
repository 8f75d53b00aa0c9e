package protocol

import "strings"

// Settings choose a table's protocol and its conditions: in the config's
// [sim] section and [[table]] presets, and as sim's flags. Zero values take
// the papers' defaults. Each protocol reads the settings it owns (Own) and
// ignores the others, which Build refuses when another protocol owns them.
type Settings struct {
	// Key is where the settings were given, for errors: "--protocol"
	// (sim's flags) or a config key such as "table[0].protocol".
	Key string

	Protocol string // the protocol's name; "" is RoundTable's
	// Agent is the kind of the agents a headless run seats: a protocol's
	// model-free kind, or "llm"; "" at a live table.
	Agent    string
	Question string   // the statement, claim or brief the table is about
	Items    []string // panel: the items evaluated
	// Alpha is the weight of the newest sentiment (panel); Tolerance stops
	// the panel when no sentiment moves by it. Alphas and Tolerances,
	// with more than one value, are a grid of runs.
	Alpha, Tolerance   float64
	Alphas, Tolerances []float64
	// Temperatures are the language models' sampling temperatures (panel,
	// with language-model judges): one sets it, more are a third axis of
	// the grid; none leaves each endpoint's own.
	Temperatures []float64
	// Speaking is how the panel's judges give their opinions: in-turn (one
	// at a time in seat order, each seeing those before, as Sentimental
	// Agents) or simultaneous (sealed until every judge has spoken).
	Speaking string
	// Roles are the panel's judges, one per seat; Docs are the items'
	// source documents, by item.
	Roles []string
	Docs  map[string]string

	TwoWay  bool   // dyads: both of the pair write and report
	Stances string // how seats' starting stances are assigned (Stances)
	// Weight, Mu and Epsilon are the offline dyads' DeGroot weight,
	// Deffuant convergence and confidence bound.
	Weight, Mu, Epsilon float64
	// ConfirmationBias is none, weak or strong: an instruction in a
	// language-model persona; for offline dyads, an update weight that
	// falls with disagreement.
	ConfirmationBias string
	// Control, Memory, Framing, Claim and ClosedWorld are the dyads'
	// conditions of Opinion dynamics.
	Control, Memory, Framing, Claim string
	ClosedWorld                     bool
	// BeliefReport is how a dyads listener reports: verbal (its words,
	// mapped to -2..2 by the opinion classifier, as Opinion dynamics) or
	// self (the number it reports itself).
	BeliefReport string
	// Complement is the chatroom statement's complement; ContextChars a
	// chatroom model agent's memory in characters.
	Complement   string
	ContextChars int
	// PersonaUpdate is how a chatroom model agent's persona follows its
	// messages: signal (the default), signal:ENDPOINT, lexicon or none
	// (chatroom.ParsePersonaUpdate).
	PersonaUpdate string
}

// Field names setting name (a config key, "two_way") where the settings
// were given: the flag under sim ("--two-way"), else the key beside the
// protocol's ("table[0].two_way").
func (s Settings) Field(name string) string {
	if strings.HasPrefix(s.Key, "--") {
		return "--" + strings.ReplaceAll(name, "_", "-")
	}
	return strings.TrimSuffix(s.Key, "protocol") + name
}
