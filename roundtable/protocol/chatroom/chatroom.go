// Package chatroom is the chatroom of Conversational bias: a chat in
// which one participant at a time, never the same twice in a row, writes
// a message everyone reads; at the end everyone but the last speaker
// writes one private message, and everyone reports a stance on the five
// levels.
package chatroom

import (
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Name is the protocol's name.
const Name = "chatroom"

func init() { protocol.Register(definition{Headless{Protocol: Name}}) }

// definition is the registered protocol.
type definition struct{ Headless }

var (
	_ protocol.Headless = definition{}
	_ protocol.Briefer  = definition{}
	_ protocol.Analyst  = definition{}
	_ protocol.Reporter = definition{}
)

// Name implements protocol.Protocol.
func (definition) Name() string { return Name }

// Schedule implements protocol.Protocol.
func (definition) Schedule(s protocol.Settings) (*roundtable.Protocol, error) {
	if err := CheckSettings(s); err != nil {
		return nil, err
	}
	return Record(Preset(s), s), nil
}

// Own implements protocol.Protocol.
func (definition) Own(s protocol.Settings) []string { return OwnSettings(s) }

// Briefing implements protocol.Briefer: a chat where nothing is voted
// on, whose agents state their stance as the paper's persona and
// remember the chat's latest messages.
func (definition) Briefing() roundtable.Briefing {
	return roundtable.Briefing{
		Setting: "participants of an online chat",
		Schedule: "A chat of {rounds} messages: each turn one participant, never the same twice in a row, writes one message everyone reads. " +
			"At the end some of you write one private message, and everyone privately reports where they stand.",
		NoRule:  true,
		Persona: roundtable.PersonaStance,
		History: roundtable.HistoryChat,
	}
}

// Preset is the chatroom: each round one message by a random speaker
// other than the last; after the last round everyone but the last speaker
// writes one private message, and everyone reports a stance on the five
// levels about the question.
func Preset(s protocol.Settings) *roundtable.Protocol {
	return &roundtable.Protocol{
		Name:  Name,
		Round: []roundtable.Step{{Phase: roundtable.PhaseMessage, Speakers: roundtable.SpeakRandom}},
		Final: []roundtable.Step{
			{Phase: roundtable.PhasePrivate, Speakers: roundtable.SpeakAllButOne},
			{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakEveryone, Scale: roundtable.StanceScale(s.Question)},
		},
		Stop: roundtable.StopRule{Kind: roundtable.StopRounds},
	}
}

// OwnSettings are the chatroom's settings s gives: the complement, and
// the context window and persona updates of its model agents. The questionnaire, its baseline,
// owns them too.
func OwnSettings(s protocol.Settings) []string {
	var out []string
	if s.Complement != "" {
		out = append(out, "complement")
	}
	if s.ContextChars != 0 {
		out = append(out, "context_chars")
	}
	if s.PersonaUpdate != "" && s.PersonaUpdate != PersonaSignal {
		out = append(out, "persona_update")
	}
	return out
}

// CheckSettings reports the first bad chatroom setting, naming it.
func CheckSettings(s protocol.Settings) error {
	if s.ContextChars < 0 {
		return fmt.Errorf("%s: %d is negative", s.Field("context_chars"), s.ContextChars)
	}
	return checkPersonaUpdate(s)
}

// Record keeps the complement in pr's parameters, so that analyze's
// stance classifier asks about the same two statements the personas
// were given.
func Record(pr *roundtable.Protocol, s protocol.Settings) *roundtable.Protocol {
	if s.Complement == "" {
		return pr
	}
	if pr.Params == nil {
		pr.Params = map[string]string{}
	}
	pr.Params["complement"] = s.Complement
	return pr
}

// LiveTables implements protocol.Live: three personas that keep their
// stance, one agreeing, one neutral, one disagreeing.
func (definition) LiveTables() []protocol.LiveTable {
	q := "Cities should ban cars from their centres."
	return []protocol.LiveTable{{Name: Name, Title: "Chatroom: one speaker at a time", Task: roundtable.TaskSpec{Kind: "text", Topic: q}, Rounds: 6,
		EarlyStop: roundtable.StopNever, Schedule: Preset(protocol.Settings{Question: q}),
		Seats: protocol.BotSeats(Name, [3]string{"Pat (agrees)", "persona", "strongly agree"}, [3]string{"Sam (neutral)", "persona", "neutral"},
			[3]string{"Lee (disagrees)", "persona", "strongly disagree"})}}
}

// CheckLive refuses what belongs to the agents at a live table (the
// chatroom's and its questionnaire's): their memory and their persona.
func (Headless) CheckLive(s protocol.Settings) error {
	if s.ContextChars != 0 {
		return fmt.Errorf("%s: a live table's agents keep the memory of their [[agent]] preset (context_chars there)", s.Field("context_chars"))
	}
	if s.PersonaUpdate != "" && s.PersonaUpdate != PersonaSignal {
		return fmt.Errorf("%s: a live table's agents follow the persona_update of their [[agent]] preset", s.Field("persona_update"))
	}
	if s.Complement != "" {
		return fmt.Errorf("%s: a live table's agents take their persona from their [[agent]] preset; write the complement into its stance or background", s.Field("complement"))
	}
	return nil
}
