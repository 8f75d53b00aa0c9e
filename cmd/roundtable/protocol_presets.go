package main

import (
	"fmt"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/dyads"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
)

// protocolSeat is a built-in model-free agent of a protocol preset.
type protocolSeat struct {
	name, agent, stance string
}

// protocolPresets are the built-in live tables of the three protocols:
// whoever starts one takes a seat beside model-free agents, so each runs
// with nothing configured. A [[table]] of the same name replaces it.
var protocolPresets = []struct {
	name, title, topic string
	rounds             int
	preset             func(protocol.Settings) *roundtable.Protocol
	opt                protocol.Settings
	seats              []protocolSeat
}{
	{name: chatroom.Name, title: "Chatroom: one speaker at a time", topic: "Cities should ban cars from their centres.", rounds: 6, preset: chatroom.Preset,
		opt: protocol.Settings{Question: "Cities should ban cars from their centres."},
		seats: []protocolSeat{{"Pat (agrees)", "persona", "strongly agree"}, {"Sam (neutral)", "persona", "neutral"},
			{"Lee (disagrees)", "persona", "strongly disagree"}}},
	{name: dyads.Name, title: "Dyads: opinions in pairs", topic: "The Great Wall of China is visible from space with the naked eye.", rounds: 12, preset: dyads.Preset,
		opt: protocol.Settings{Question: "The Great Wall of China is visible from space with the naked eye."},
		seats: []protocolSeat{{"Ada (DeGroot)", "degroot", "-2"}, {"Ben (DeGroot)", "degroot", "-1"},
			{"Cy (DeGroot)", "degroot", "1"}, {"Dee (DeGroot)", "degroot", "2"}}},
	{name: panel.Name, title: "Panel: rate three candidates", topic: "Which candidate should we hire as data engineer?", rounds: 5, preset: panel.Preset,
		opt:   protocol.Settings{Question: "How good a fit is each candidate?", Items: []string{"Ann", "Ben", "Cy"}, Tolerance: 1e-3},
		seats: []protocolSeat{{"Judge Reyes", "evaluator", ""}, {"Judge Okafor", "evaluator", ""}}},
}

// addProtocolPresets registers the protocol presets and their agents.
func addProtocolPresets(bc *bot.Config) {
	for _, p := range protocolPresets {
		cfg := bc.Defaults
		cfg.Title, cfg.Rounds, cfg.EarlyStop = p.title, p.rounds, roundtable.StopNever
		cfg.Task = roundtable.TaskSpec{Kind: "text", Topic: p.topic}
		cfg.Protocol = p.preset(p.opt)
		var names []string
		for i, s := range p.seats {
			bc.Agents[s.name] = roundtable.Participant{ID: fmt.Sprintf("agent:%s-%d", p.name, i+1), Name: s.name, Kind: roundtable.Bot, Agent: s.agent, Stance: s.stance}
			names = append(names, s.name)
		}
		bc.Presets[p.name] = bot.Preset{Name: p.name, Config: cfg, Agents: names}
	}
}
