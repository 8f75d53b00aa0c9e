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

// ModelOptions are what a protocol asks of a language-model agent.
type ModelOptions struct {
	Memory       string // the agent package's policy: full or reflective
	ContextChars int    // a chatroom agent's memory, in characters (0: the agent's default)
	// Temperature is the grid cell's sampling temperature; nil leaves the
	// endpoint's.
	Temperature *float64
}

// MaxAgents bounds Options.Agents. Candidates are labelled A..Z, AA, AB,
// ... so any number fits; the bound only keeps an exchange proposal (K x K
// amounts, written in every prompt and log entry) of a sane size.
const MaxAgents = 100
