package experiment

import (
	"log/slog"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Options say what a simulation runs. Zero values are not defaulted here:
// the caller (sim's flags over the config's [sim] section) gives them.
type Options struct {
	Task   string // exchange, text or recommendation (the tables of RoundTable's protocol)
	Topic  string // the text task's question; a protocol's when it has no question
	Preset string // the exchange economy's preferences
	Data   string // the MovieLens-100k directory of the recommendation task
	// Agent is the agents' kind: utility (exchange, rule-based), baseline
	// (recommendation), llm, or a protocol's model-free kind; "" is the
	// task's (utility) or the protocol's default.
	Agent                string
	Agents, Rounds, Runs int
	Seed                 int64
	Rules                []vote.Rule
	Tie                  vote.TiePolicy
	EarlyStop            roundtable.EarlyStop
	Quorum               int
	Concurrency          int // tables at once; 0: 16 per CPU, 4 per CPU with language models
	PhaseTimeout         time.Duration
	// Protocol is the schedule and its conditions; its Protocol "" is
	// RoundTable's, whose tables play Task.
	Protocol protocol.Settings
	// Personas seat language-model agents at RoundTable's tasks, in turn
	// (the config's [[agent]] presets); none: plain agents.
	Personas []roundtable.Participant
	// Bots, when set, seat the bots in turn instead of Personas: each
	// with its persona (RoundTable's tasks) and what its model is asked
	// with (a study's [[condition.bot]]). The last Humans seats are a live
	// table's people, played by StandIn (a study's stand_in) headless.
	Bots    []Seat
	Humans  int
	StandIn Seat
	// Name, when set, is the prefix of the tables' IDs (NAME-0001) instead
	// of one made of the design, rule and counts: a study's condition,
	// which has one design and one rule. Labels are added to every
	// table's config, with the run's number as "replication" (1-based).
	Name   string
	Labels map[string]string
	// Durations are the live tables' phase deadlines, Audit their audit:
	// recorded in each table's config (a headless run closes a phase when
	// its agents have answered).
	Durations roundtable.Durations
	Audit     *roundtable.AuditSpec
	// NewTables starts new tables beside stored ones of another recipe
	// (sim.Spec.NewTables) instead of refusing them.
	NewTables bool
	// Model makes language-model agents (Agent "llm"); nil when no model
	// is configured.
	Model  Model
	Logger *slog.Logger
}

// Model makes the language-model agent of seat p at a table of task. At a
// protocol's table o is the protocol's memory and context window; at
// RoundTable's tasks it is zero and the seat's own Agent field (llm or
// preset:NAME) says which.
type Model func(p roundtable.Participant, task roundtable.Task, o ModelOptions) (roundtable.Agent, error)

// ModelOptions are what a seat asks of its language-model agent: at a
// protocol's table the protocol's memory, in a study also the seat's
// endpoint, model and sampling. Zero fields leave the defaults (the
// first endpoint, its model and sampling, full memory).
type ModelOptions struct {
	Endpoint     string   // the [[llm]] endpoint's name
	Model        string   // the model to ask, instead of the endpoint's
	Temperature  *float64 // instead of the endpoint's
	MaxTokens    int      // instead of the endpoint's
	Memory       string   // the agent package's policy: full, window or reflective
	Window       int      // rounds a window memory keeps verbatim
	ContextChars int      // a chatroom agent's memory, in characters (0: the agent's default)
	// PersonaUpdate is how a chatroom agent's persona follows its messages
	// (protocol.Settings.PersonaUpdate; "" the default, signal).
	PersonaUpdate string
}

// Seat is how a study seats a bot: who it plays (Name, Background, Goal
// and Stance, at RoundTable's tasks) and what its model is asked with.
type Seat struct {
	Persona roundtable.Participant
	Model   ModelOptions
}

// MaxAgents bounds Options.Agents. Candidates are labelled A..Z, AA, AB,
// ... so any number fits; the bound only keeps an exchange proposal (K x K
// amounts, written in every prompt and log entry) of a sane size.
const MaxAgents = 100
