package roundtable

import (
	"fmt"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Kind says whether a participant is a person or an agent.
type Kind string

// Participant kinds.
const (
	Human Kind = "human"
	Bot   Kind = "agent"
)

// Participant is one seat at a table.
type Participant struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Kind       Kind   `json:"kind"`
	Background string `json:"background,omitempty"`
	Goal       string `json:"goal,omitempty"`
	Stance     string `json:"stance,omitempty"`
	// Agent names the agent implementation or preset that acts for a Bot
	// participant ("utility", "llm:<endpoint>", a preset name).
	Agent string `json:"agent,omitempty"`
	// Platform is the participant's identity on its chat platform, if any.
	Platform string `json:"platform,omitempty"`
	// Parts are the parts the participant plays (parts.go); none listed:
	// every part of the table's schedule.
	Parts []Part `json:"parts,omitempty"`
}

// TaskSpec says what the table decides. Kind selects the task implementation
// ("text", "exchange", "recommendation"); the rest are its parameters.
type TaskSpec struct {
	Kind   string            `json:"kind"`
	Topic  string            `json:"topic,omitempty"`
	Params map[string]string `json:"params,omitempty"`
	// Private is the task's ground truth, which no participant may see
	// (the recommendation task's true rating). It is kept in the log, with
	// the config of TableCreated, so that a run can be re-scored from its
	// export; it may be shown only in the organiser's export after the
	// table ends. Every other show or export path drops it (Public).
	Private map[string]string `json:"private,omitempty"`
}

// Public returns the spec without its Private ground truth.
func (s TaskSpec) Public() TaskSpec {
	s.Private = nil
	return s
}

// EarlyStop selects when a table may end before its last round.
type EarlyStop string

// Early-stopping policies of RoundTable section 4.5 that need no training.
const (
	StopNever       EarlyStop = "none"                   // run all rounds (@R)
	StopFirst       EarlyStop = "first-agreement"        // stop when a proposal first passes
	StopConsecutive EarlyStop = "consecutive-agreements" // stop when nobody proposes anew after an acceptance
)

// Mode says when messages of the message phase become visible.
type Mode string

// Visibility modes.
const (
	Sealed Mode = "sealed" // every message of a phase is revealed at its close
	Live   Mode = "live"   // messages show as they come
)

// Durations are the phase deadlines of a live table; zero means no deadline
// (the phase closes when everyone has acted or the table is told to close it).
type Durations struct {
	Message  time.Duration `json:"message,omitempty"`
	Proposal time.Duration `json:"proposal,omitempty"`
	Vote     time.Duration `json:"vote,omitempty"`
}

// For returns the duration of phase p.
func (d Durations) For(p Phase) time.Duration {
	switch p {
	case PhaseMessage:
		return d.Message
	case PhaseProposal:
		return d.Proposal
	case PhaseVote, PhaseSurvey:
		return d.Vote
	case PhasePrivate:
		return d.Message
	}
	return 0
}

// Config is everything that defines a table. It is recorded whole in the
// TableCreated event, so a table can be rebuilt from its log alone.
type Config struct {
	Title        string            `json:"title,omitempty"`
	Task         TaskSpec          `json:"task"`
	Rule         vote.Rule         `json:"rule"`
	Tie          vote.TiePolicy    `json:"tie,omitempty"`
	Quorum       int               `json:"quorum,omitempty"` // ballots (abstentions included) a vote needs to decide; 0: none
	Rounds       int               `json:"rounds"`
	EarlyStop    EarlyStop         `json:"early_stop,omitempty"`
	Mode         Mode              `json:"mode,omitempty"`
	Seed         int64             `json:"seed"`
	Durations    Durations         `json:"durations,omitempty"`
	Participants []Participant     `json:"participants,omitempty"`
	Labels       map[string]string `json:"labels,omitempty"`
	// Protocol is the table's schedule of phases; nil is RoundTable's.
	Protocol *Protocol  `json:"protocol,omitempty"`
	Audit    *AuditSpec `json:"audit,omitempty"` // nil: not audited
	Secret   Secrecy    `json:"secret,omitzero"` // secret ballots
	// Provenance is the software that created the table and what its
	// model-driven seats think with; nil in logs older than it.
	Provenance *Provenance `json:"provenance,omitempty"`
	// Start says when a live table starts and whom it needs (start.go);
	// headless runs start at once.
	Start Start `json:"start,omitzero"`
}

// DefaultRounds is the paper's number of rounds.
const DefaultRounds = 10

// WithDefaults fills zero fields with their defaults.
func (c Config) WithDefaults() Config {
	if c.Rounds == 0 {
		c.Rounds = DefaultRounds
	}
	if c.Tie == "" {
		c.Tie = "defer"
	}
	if c.EarlyStop == "" {
		c.EarlyStop = StopNever
	}
	if c.Mode == "" {
		c.Mode = Sealed
	}
	if c.Task.Kind == "" {
		c.Task.Kind = "text"
	}
	return c
}

// Validate reports the first problem with c, naming the field.
func (c Config) Validate() error {
	if _, err := vote.ParseRule(string(c.Rule)); err != nil {
		return Errorf(Invalid, "rule: %v", err)
	}
	if _, err := vote.ParseTiePolicy(string(c.Tie)); err != nil {
		return Errorf(Invalid, "tie: %v", err)
	}
	if c.Rounds < 1 || c.Rounds > 1000 {
		return Errorf(Invalid, "rounds: %d is out of range 1..1000", c.Rounds)
	}
	if c.Quorum < 0 {
		return Errorf(Invalid, "quorum: %d is negative", c.Quorum)
	}
	switch c.EarlyStop {
	case StopNever, StopFirst, StopConsecutive:
	default:
		return Errorf(Invalid, "early_stop: unknown policy %q (want %s, %s or %s)", c.EarlyStop, StopNever, StopFirst, StopConsecutive)
	}
	if c.Mode != Sealed && c.Mode != Live {
		return Errorf(Invalid, "mode: unknown mode %q (want sealed or live)", c.Mode)
	}
	if c.Protocol != nil {
		if c.EarlyStop != StopNever {
			return Errorf(Invalid, "early_stop: a table with a protocol stops by protocol.stop, not early_stop %q", c.EarlyStop)
		}
		if err := c.Protocol.Validate(); err != nil {
			return err
		}
	}
	if c.Secret.Research && !c.Secret.Ballots {
		return Errorf(Invalid, "secret.research: only a secret-ballot table (secret.ballots) keeps ballots for research")
	}
	if err := c.Audit.Validate(); err != nil {
		return err
	}
	if err := c.Start.Validate(); err != nil {
		return err
	}
	return validateParticipants(c.Participants)
}

func validateParticipants(ps []Participant) error {
	seen := make(map[string]bool, len(ps))
	for i, p := range ps {
		if err := p.validate(); err != nil {
			return fmt.Errorf("participants[%d]: %w", i, err)
		}
		if seen[p.ID] {
			return Errorf(Invalid, "participants[%d]: duplicate id %q", i, p.ID)
		}
		seen[p.ID] = true
	}
	return nil
}

// MaxNameLen bounds participant names.
const MaxNameLen = 64

func (p Participant) validate() error {
	switch {
	case strings.TrimSpace(p.ID) == "":
		return Errorf(Invalid, "participant id is empty")
	case strings.TrimSpace(p.Name) == "":
		return Errorf(Invalid, "participant %q has no name", p.ID)
	case len(p.Name) > MaxNameLen:
		return Errorf(Invalid, "participant name is %d bytes long, the limit is %d", len(p.Name), MaxNameLen)
	case p.Kind != Human && p.Kind != Bot:
		return Errorf(Invalid, "participant %q has unknown kind %q (want human or agent)", p.ID, p.Kind)
	}
	return checkParts(p.Parts)
}
