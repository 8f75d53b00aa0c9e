// Package deliberation is RoundTable's own protocol (its directory is
// protocol/roundtable): every round a message, a proposal and a vote, the
// schedule of a table whose Config.Protocol is nil. It holds the figures
// of the RoundTable paper's tasks (the exchange economy's utility, the
// free-text task's agreement, the recommendation task's error) with their
// units, and the built-in live exchange table. Its package name is not
// roundtable, which would shadow the domain package it is built on.
package deliberation

import (
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Name is the protocol's name.
const Name = roundtable.ProtocolRoundTable

func init() { protocol.Register(definition{}) }

// definition is the registered protocol.
type definition struct{}

var (
	_ protocol.Briefer = definition{}
	_ protocol.Live    = definition{}
)

// ExchangeTable names the built-in live table of the exchange economy.
const ExchangeTable = "exchange-economy"

// Name implements protocol.Protocol.
func (definition) Name() string { return Name }

// Schedule implements protocol.Protocol: nil, RoundTable's own schedule.
func (definition) Schedule(protocol.Settings) (*roundtable.Protocol, error) { return nil, nil }

// Own implements protocol.Protocol: RoundTable owns none of the papers'
// settings.
func (definition) Own(protocol.Settings) []string { return nil }

// Briefing implements protocol.Briefer: the zero Briefing, the
// deliberation every agent knows.
func (definition) Briefing() roundtable.Briefing { return roundtable.Briefing{} }

// LiveTables implements protocol.Live: the exchange economy of the
// RoundTable paper, two rule-based traders and the people who join. The
// economy is sized when the table starts: one agent, and one good, per
// seat taken then (roundtable.ParamSeats), so every seat, a person's or
// a trader's, has its utility.
func (definition) LiveTables() []protocol.LiveTable {
	return []protocol.LiveTable{{Name: ExchangeTable, Title: "Exchange economy: people and traders share out the goods, one kind per seat",
		Task: roundtable.TaskSpec{Kind: "exchange", Topic: "Share out the goods", Params: map[string]string{"preset": "asymmetric"}},
		Rule: vote.Majority, Rounds: 5,
		Seats: protocol.BotSeats("trader", [3]string{"Trader 1", "utility", ""}, [3]string{"Trader 2", "utility", ""})}}
}
