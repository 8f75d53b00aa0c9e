// Package deliberation is RoundTable's own protocol (its directory is
// protocol/roundtable): every round a message, a proposal and a vote, the
// schedule of a table whose Config.Protocol is nil. Its package name is
// not roundtable, which would shadow the domain package it is built on.
package deliberation

import (
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Name is the protocol's name.
const Name = roundtable.ProtocolRoundTable

func init() { protocol.Register(definition{}) }

// definition is the registered protocol.
type definition struct{}

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
