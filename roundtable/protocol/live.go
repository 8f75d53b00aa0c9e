package protocol

import (
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Live is a protocol with built-in live tables: whoever starts one sits
// beside model-free agents, so it runs with nothing configured.
type Live interface {
	LiveTables() []LiveTable
}

// LiveTable is a built-in live table: what it sets over the server's
// table defaults, and its bot agents.
type LiveTable struct {
	Name      string // the preset's name
	Title     string
	Task      roundtable.TaskSpec
	Rule      vote.Rule            // "": the server's default
	Rounds    int                  // 0: the server's default
	EarlyStop roundtable.EarlyStop // "": the server's default
	Schedule  *roundtable.Protocol
	Seats     []roundtable.Participant
}

// Over returns def with what t sets.
func (t LiveTable) Over(def roundtable.Config) roundtable.Config {
	def.Title, def.Task, def.Protocol = t.Title, t.Task, t.Schedule
	if t.Rule != "" {
		def.Rule = t.Rule
	}
	if t.Rounds > 0 {
		def.Rounds = t.Rounds
	}
	if t.EarlyStop != "" {
		def.EarlyStop = t.EarlyStop
	}
	return def
}

// BotSeats are a live table's bot agents, "agent:PREFIX-1" onwards: each
// seat a name, a model-free agent kind and a stance.
func BotSeats(prefix string, seats ...[3]string) []roundtable.Participant {
	out := make([]roundtable.Participant, len(seats))
	for i, s := range seats {
		out[i] = roundtable.Participant{ID: fmt.Sprintf("agent:%s-%d", prefix, i+1), Name: s[0], Kind: roundtable.Bot, Agent: s[1], Stance: s[2]}
	}
	return out
}

// CheckLive refuses, at a live table, the settings that belong to its
// agents rather than to the table: a live table's agents take their
// persona and memory from their [[agent]] preset. Errors name the setting.
func CheckLive(s Settings) error {
	if s.ConfirmationBias != "" && s.ConfirmationBias != opinion.BiasNone {
		return fmt.Errorf("%s: a live table's agents take their persona from their [[agent]] preset; write the bias into its background", s.Field("confirmation_bias"))
	}
	p, ok := Lookup(s.Protocol)
	if c, live := p.(interface{ CheckLive(Settings) error }); ok && live {
		return c.CheckLive(s)
	}
	return nil
}
