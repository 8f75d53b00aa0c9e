package roundtable

import (
	"fmt"
	"sync"
)

// Briefing is what a model-driven agent is told about a protocol, and how
// the protocol asks it to take part: data that a protocol registers under
// its name (RegisterBriefing) and a View carries, so that an agent never
// asks which protocol it is in. A Briefing is never written to the log: a
// table, old or new, gets it from the registry by its protocol's name.
// The zero Briefing is RoundTable's own deliberation.
type Briefing struct {
	// Setting completes "You are NAME, one of N ...": who the
	// participants are. "" says a round table that has to reach a
	// decision as a group.
	Setting string
	// Schedule says how the table works, as a section of the system
	// prompt; {rounds} stands for the table's rounds. "" is RoundTable's
	// message, proposal and vote.
	Schedule string
	// NoRule leaves the voting rule out of the prompt: nothing is voted on.
	NoRule bool
	// Persona is how an agent's persona is stated.
	Persona PersonaStyle
	// History is what an agent remembers of the table.
	History HistoryStyle
	// SelfModel asks for a mental model of self before each message, which
	// the message then carries (Say.Self).
	SelfModel bool
	// Smoothing, when its Param is set, makes every survey answer an
	// update: the recorded values are a·reported + (1−a)·previous.
	Smoothing Smoothing
	// VerbalReport has a one-value survey answered in words: the
	// participant states its belief, and an opinion classifier (a second
	// question to the same model, with the words alone) maps them to a
	// level of the scale (Opinion dynamics' listener reports). The
	// protocol parameter belief_report = "self" asks for the number
	// itself instead.
	VerbalReport bool
	// PairNote tells the writer of a paired message what to write about
	// the survey's question; {to} stands for the addressee's name and
	// {question} for the question, quoted. "" says only whom to write to.
	PairNote string
}

// PersonaStyle is how a protocol states an agent's persona.
type PersonaStyle string

// Persona styles.
const (
	PersonaPlain  PersonaStyle = ""       // name, background, goal and stance as configured
	PersonaStance PersonaStyle = "stance" // the stance stated about the survey's question (Conversational bias)
)

// HistoryStyle is what a protocol's agents remember.
type HistoryStyle string

// History styles.
const (
	HistoryRounds     HistoryStyle = ""           // every round, under the agent's memory policy
	HistoryChat       HistoryStyle = "chat"       // the chat's most recent messages that fit the agent's context
	HistoryExperience HistoryStyle = "experience" // only what the participant wrote, was written and reported
)

// Smoothing is a survey's update rule: recorded = a·reported +
// (1−a)·previous, with a the protocol parameter Param (Protocol.Params),
// or Default when the parameter is missing or outside (0, 1]. The first
// answer is recorded as reported.
type Smoothing struct {
	Param   string
	Default float64
}

// briefings are the registered briefings by protocol name. RoundTable's own
// schedule, which a table with a self-report survey names, is there from
// the start.
var briefings = struct {
	sync.RWMutex
	m map[string]Briefing
}{m: map[string]Briefing{ProtocolRoundTable: {}}}

// RegisterBriefing makes b the briefing of the protocol named name. A protocol
// package calls it once, as database/sql drivers register; registering
// another briefing under a name already taken panics.
func RegisterBriefing(name string, b Briefing) {
	briefings.Lock()
	defer briefings.Unlock()
	if old, dup := briefings.m[name]; dup && old != b {
		panic(fmt.Sprintf("roundtable: RegisterBriefing called twice for protocol %q", name))
	}
	briefings.m[name] = b
}

// Briefing returns the registered briefing of p's protocol; ok is false
// for a protocol nobody registered (a custom schedule) and for a nil
// Protocol.
func (p *Protocol) Briefing() (b Briefing, ok bool) {
	if p == nil {
		return Briefing{}, false
	}
	briefings.RLock()
	defer briefings.RUnlock()
	b, ok = briefings.m[p.Name]
	return b, ok
}
