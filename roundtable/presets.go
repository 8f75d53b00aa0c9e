package roundtable

import (
	"fmt"
	"strconv"
)

// The protocol presets of DESIGN.md "Protocols".
const (
	ProtocolRoundTable = "roundtable"
	ProtocolPanel      = "panel"
	ProtocolChatroom   = "chatroom"
	ProtocolDyads      = "dyads"
	// ProtocolQuestionnaire is the chatroom's baseline: the same personas
	// answer the stance survey once, with no conversation.
	ProtocolQuestionnaire = "questionnaire"
)

// The evaluation panel's defaults (Sentimental Agents): the weight of the
// newest opinion in the sentiment update, and the stop rule's tolerance.
const (
	DefaultPanelAlpha     = 0.5
	DefaultPanelTolerance = 1e-5
)

// PresetOptions are the parameters of the protocol presets; zero values
// take the papers' defaults.
type PresetOptions struct {
	Question  string   // the statement or claim surveyed (chatroom, dyads) or the panel's brief
	Items     []string // panel: the items evaluated (one value each)
	Alpha     float64  // panel: weight of the newest opinion (default 0.5), recorded for the agents
	Tolerance float64  // panel: stop when every change is below it (default 1e-5)
	TwoWay    bool     // dyads: both of the pair write and report (the symmetric Deffuant update)
	Control   string   // dyads: "" (none), ControlNoInteraction or ControlNoRolePlay
}

// The control conditions of Opinion dynamics (section 3.5). Both drop the
// interaction: each step one drawn participant reports its belief and
// nobody writes. ControlNoRolePlay also seats the agents without persona
// or initial belief; the schedule is the same, the seating differs.
const (
	ControlNone          = "none"
	ControlNoInteraction = "no-interaction"
	ControlNoRolePlay    = "no-role-play"
)

// Preset returns the protocol of a preset; roundtable returns nil, RoundTable's
// own schedule.
func Preset(name string, o PresetOptions) (*Protocol, error) {
	switch name {
	case "", ProtocolRoundTable:
		return nil, nil
	case ProtocolPanel:
		return Panel(o), nil
	case ProtocolChatroom:
		return Chatroom(o), nil
	case ProtocolDyads:
		switch o.Control {
		case "", ControlNone, ControlNoInteraction, ControlNoRolePlay:
		default:
			return nil, Errorf(Invalid, "control: unknown control %q (want %s, %s or %s)", o.Control, ControlNone, ControlNoInteraction, ControlNoRolePlay)
		}
		return Dyads(o), nil
	case ProtocolQuestionnaire:
		return Questionnaire(o), nil
	}
	return nil, Errorf(Invalid, "protocol: unknown preset %q (want %s, %s, %s, %s or %s)", name,
		ProtocolRoundTable, ProtocolPanel, ProtocolChatroom, ProtocolDyads, ProtocolQuestionnaire)
}

// Panel is the evaluation panel of Sentimental Agents: every round everyone
// states an opinion on the items, then privately reports a sentiment in
// -1..1 per item; the table stops when no sentiment moves by the tolerance.
func Panel(o PresetOptions) *Protocol {
	if o.Alpha == 0 {
		o.Alpha = DefaultPanelAlpha
	}
	if o.Tolerance == 0 {
		o.Tolerance = DefaultPanelTolerance
	}
	items := o.Items
	if len(items) == 0 {
		items = []string{"the proposal"}
	}
	return &Protocol{
		Name: ProtocolPanel,
		Round: []Step{
			{Phase: PhaseMessage, Speakers: SpeakEveryone},
			{Phase: PhaseSurvey, Speakers: SpeakEveryone, Scale: &Scale{Question: o.Question, Min: -1, Max: 1, Items: items}},
		},
		Stop:   StopRule{Kind: StopConvergence, Tolerance: o.Tolerance},
		Params: map[string]string{"alpha": strconv.FormatFloat(o.Alpha, 'g', -1, 64)},
	}
}

// Chatroom is the chatroom of Conversational bias: each round one message
// by a random speaker other than the last; after the last round everyone
// but the last speaker writes one private message, and everyone reports a
// stance on the five levels.
func Chatroom(o PresetOptions) *Protocol {
	return &Protocol{
		Name:  ProtocolChatroom,
		Round: []Step{{Phase: PhaseMessage, Speakers: SpeakRandom}},
		Final: []Step{
			{Phase: PhasePrivate, Speakers: SpeakAllButOne},
			{Phase: PhaseSurvey, Speakers: SpeakEveryone, Scale: StanceScale(o.Question)},
		},
		Stop: StopRule{Kind: StopRounds},
	}
}

// Questionnaire is the one-shot Likert questionnaire of Conversational
// bias: everyone privately reports a stance on the five levels, once.
func Questionnaire(o PresetOptions) *Protocol {
	return &Protocol{Name: ProtocolQuestionnaire,
		Round: []Step{{Phase: PhaseSurvey, Speakers: SpeakEveryone, Scale: StanceScale(o.Question)}},
		Stop:  StopRule{Kind: StopRounds}}
}

// Dyads is the dyadic step of Opinion dynamics: each round a sampled pair
// i -> j; i writes to j, and j reports its belief on -2..2. TwoWay has both
// write to each other and both report. Under a control (no interaction,
// no role play) each round one participant, drawn as j would be, reports
// its belief without reading anything: the paper's repeated independent
// reports, on the same time axis as the interacting condition.
func Dyads(o PresetOptions) *Protocol {
	scale := &Scale{Question: o.Question, Min: -2, Max: 2}
	if o.Control == ControlNoInteraction || o.Control == ControlNoRolePlay {
		return &Protocol{Name: ProtocolDyads,
			Round:  []Step{{Phase: PhaseSurvey, Speakers: SpeakOne, Scale: scale}},
			Stop:   StopRule{Kind: StopRounds},
			Params: map[string]string{"exchange": "none", "control": o.Control}}
	}
	write, report, ways := SpeakPair, SpeakListener, "one-way"
	if o.TwoWay {
		write, report, ways = SpeakBoth, SpeakBoth, "two-way"
	}
	return &Protocol{
		Name: ProtocolDyads,
		Round: []Step{
			{Phase: PhaseMessage, Speakers: write},
			{Phase: PhaseSurvey, Speakers: report, Scale: scale},
		},
		Stop:   StopRule{Kind: StopRounds},
		Params: map[string]string{"exchange": ways},
	}
}

// Param returns a recorded preset parameter as a number, or def.
func (p *Protocol) Param(name string, def float64) float64 {
	if p == nil {
		return def
	}
	v, err := strconv.ParseFloat(p.Params[name], 64)
	if err != nil {
		return def
	}
	return v
}

// String names the protocol.
func (p *Protocol) String() string {
	if p == nil {
		return ProtocolRoundTable
	}
	if p.Name == "" {
		return fmt.Sprintf("custom (%d steps)", len(p.Round))
	}
	return p.Name
}
