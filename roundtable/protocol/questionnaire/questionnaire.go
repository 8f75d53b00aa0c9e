// Package questionnaire is the chatroom's baseline in Conversational
// bias: the same personas answer the stance survey once, with no
// conversation. Its tables are measured and reported with the
// chatroom's.
package questionnaire

import (
	"context"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/chatroom"
)

// Name is the protocol's name.
const Name = "questionnaire"

func init() { protocol.Register(definition{chatroom.Headless{Protocol: Name}}) }

// definition is the registered protocol: headless, it is the chatroom's.
type definition struct{ chatroom.Headless }

var (
	_ protocol.Headless = definition{}
	_ protocol.Briefer  = definition{}
	_ protocol.Analyst  = definition{}
)

// Name implements protocol.Protocol.
func (definition) Name() string { return Name }

// Schedule implements protocol.Protocol.
func (definition) Schedule(s protocol.Settings) (*roundtable.Protocol, error) {
	if err := chatroom.CheckSettings(s); err != nil {
		return nil, err
	}
	return chatroom.Record(Preset(s), s), nil
}

// Own implements protocol.Protocol: the chatroom's settings.
func (definition) Own(s protocol.Settings) []string { return chatroom.OwnSettings(s) }

// Briefing implements protocol.Briefer.
func (definition) Briefing() roundtable.Briefing {
	return roundtable.Briefing{Schedule: "The table follows the questionnaire schedule for up to {rounds} rounds; each request says what to do."}
}

// Preset is the one-shot Likert questionnaire: everyone privately reports
// a stance on the five levels about the question, once.
func Preset(s protocol.Settings) *roundtable.Protocol {
	return &roundtable.Protocol{Name: Name,
		Round: []roundtable.Step{{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakEveryone, Scale: roundtable.StanceScale(s.Question)}},
		Stop:  roundtable.StopRule{Kind: roundtable.StopRounds}}
}

// Joins implements protocol.Analyst: the questionnaire is the chatroom's
// baseline, a row of its report.
func (definition) Joins() string { return chatroom.Name }

// Analyze implements protocol.Analyst: the chatroom's figures from the
// self-reports of the one-shot questionnaire.
func (definition) Analyze(_ context.Context, t protocol.Table, _ protocol.Instruments) (protocol.Measured, error) {
	params := protocol.Params(t.State)
	params["stance_from"] = "Likert questionnaire (self-report)"
	return protocol.Measured{Measures: chatroom.Measure(t.State), Params: params}, nil
}
