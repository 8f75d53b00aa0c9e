package dyads

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Name is the protocol's name.
const Name = "dyads"

// How a listener reports its belief: in words, mapped to -2..2 by the
// opinion classifier (the paper's), or as the number itself.
const (
	ReportVerbal = "verbal"
	ReportSelf   = agent.SelfReport
)

// The control conditions of Opinion dynamics (section 3.5). Both drop the
// interaction: each step one drawn participant reports its belief and
// nobody writes. ControlNoRolePlay also seats the agents without persona
// or initial belief; the schedule is the same, the seating differs.
const (
	ControlNone          = "none"
	ControlNoInteraction = "no-interaction"
	ControlNoRolePlay    = "no-role-play"
)

func init() { protocol.Register(definition{}) }

// definition is the registered protocol.
type definition struct{}

var (
	_ protocol.Headless = definition{}
	_ protocol.Asker    = definition{}
	_ protocol.Briefer  = definition{}
	_ protocol.Analyst  = definition{}
	_ protocol.Reporter = definition{}
)

// Name implements protocol.Protocol.
func (definition) Name() string { return Name }

// Schedule implements protocol.Protocol: the preset on the claim, with
// the conditions recorded in its parameters so that analyze groups and
// labels runs from their logs.
func (definition) Schedule(s protocol.Settings) (*roundtable.Protocol, error) {
	if err := check(s); err != nil {
		return nil, err
	}
	s.Question, s.TwoWay = Question(s), twoWay(s)
	return record(Preset(s), s), nil
}

// Own implements protocol.Protocol: the conditions beyond the update rule.
func (definition) Own(s protocol.Settings) []string {
	var out []string
	for name, set := range map[string]bool{
		"control": s.Control != "" && s.Control != ControlNone, "memory": s.Memory != "" && s.Memory != MemoryCumulative,
		"framing": s.Framing != "", "claim": s.Claim != "", "closed_world": s.ClosedWorld,
		"belief_report": s.BeliefReport != "" && s.BeliefReport != ReportVerbal} {
		if set {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Briefing implements protocol.Briefer: a participant remembers its own
// experiences only, and writes a post about the claim.
func (definition) Briefing() roundtable.Briefing {
	return roundtable.Briefing{
		Schedule: "For {rounds} steps, participants are drawn in turn. When drawn, you may be asked to write a post about the claim " +
			"to one other participant, or to report privately your belief about the claim after what you have experienced.",
		History:      roundtable.HistoryExperience,
		VerbalReport: true,
		PairNote:     "This round you write a post to {to} only, about the claim {question}. It should reflect your honest belief. {to} will then say what they think.",
	}
}

// Preset is the dyadic step of Opinion dynamics: each round a sampled
// pair i -> j; i writes to j, and j reports its belief on -2..2. TwoWay
// has both write to each other and both report. Under a control (no
// interaction, no role play) each round one participant, drawn as j would
// be, reports its belief without reading anything: the paper's repeated
// independent reports, on the same time axis as the interacting condition.
func Preset(s protocol.Settings) *roundtable.Protocol {
	scale := &roundtable.Scale{Question: s.Question, Min: -2, Max: 2}
	if s.Control == ControlNoInteraction || s.Control == ControlNoRolePlay {
		return &roundtable.Protocol{Name: Name,
			Round:  []roundtable.Step{{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakOne, Scale: scale}},
			Stop:   roundtable.StopRule{Kind: roundtable.StopRounds},
			Params: map[string]string{"exchange": "none", "control": s.Control}}
	}
	write, report, ways := roundtable.SpeakPair, roundtable.SpeakListener, "one-way"
	if s.TwoWay {
		write, report, ways = roundtable.SpeakBoth, roundtable.SpeakBoth, "two-way"
	}
	return &roundtable.Protocol{
		Name: Name,
		Round: []roundtable.Step{
			{Phase: roundtable.PhaseMessage, Speakers: write},
			{Phase: roundtable.PhaseSurvey, Speakers: report, Scale: scale},
		},
		Stop:   roundtable.StopRule{Kind: roundtable.StopRounds},
		Params: map[string]string{"exchange": ways},
	}
}

// check reports the first bad dyads setting, naming it.
func check(s protocol.Settings) error {
	switch s.Control {
	case "", ControlNone, ControlNoInteraction, ControlNoRolePlay:
	default:
		return fmt.Errorf("%s: %q is not none, no-interaction or no-role-play", s.Field("control"), s.Control)
	}
	switch s.Memory {
	case "", MemoryCumulative, MemoryReflective:
	default:
		return fmt.Errorf("%s: %q is not cumulative or reflective", s.Field("memory"), s.Memory)
	}
	switch s.Framing {
	case "", "true", "false":
	default:
		return fmt.Errorf("%s: %q is not true or false", s.Field("framing"), s.Framing)
	}
	switch s.BeliefReport {
	case "", ReportVerbal, ReportSelf:
	default:
		return fmt.Errorf("%s: %q is not verbal or self", s.Field("belief_report"), s.BeliefReport)
	}
	if s.Claim != "" {
		if s.Question != "" {
			return fmt.Errorf("%s: give a built-in claim or %s, not both", s.Field("claim"), s.Field("question"))
		}
		if _, ok := Claims()[s.Claim]; !ok {
			return fmt.Errorf("%s: %q is not a built-in claim (%s)", s.Field("claim"), s.Claim, strings.Join(ClaimNames(), ", "))
		}
	}
	return nil
}

// record keeps the conditions in the protocol's parameters.
func record(pr *roundtable.Protocol, s protocol.Settings) *roundtable.Protocol {
	put := func(k, v, def string) { pr.Params[k] = cmp.Or(v, def) }
	put("control", s.Control, ControlNone)
	put("memory", s.Memory, MemoryCumulative)
	put("confirmation_bias", s.ConfirmationBias, opinion.BiasNone)
	put("framing", s.Framing, "unlabelled")
	put("stances", s.Stances, "uniform")
	put(agent.SelfReportParam, s.BeliefReport, ReportVerbal)
	if s.Claim != "" {
		pr.Params["claim"] = s.Claim
	}
	if s.ClosedWorld {
		pr.Params["closed_world"] = "true"
	}
	return pr
}

// LiveTables implements protocol.Live: four DeGroot agents from -2 to 2
// on a claim.
func (definition) LiveTables() []protocol.LiveTable {
	q := "The Great Wall of China is visible from space with the naked eye."
	return []protocol.LiveTable{{Name: Name, Title: "Dyads: opinions in pairs", Task: roundtable.TaskSpec{Kind: "text", Topic: q}, Rounds: 12,
		EarlyStop: roundtable.StopNever, Schedule: Preset(protocol.Settings{Question: q}),
		Seats: protocol.BotSeats(Name, [3]string{"Ada (DeGroot)", "degroot", "-2"}, [3]string{"Ben (DeGroot)", "degroot", "-1"},
			[3]string{"Cy (DeGroot)", "degroot", "1"}, [3]string{"Dee (DeGroot)", "degroot", "2"})}}
}

// CheckLive refuses what belongs to the agents at a live table: their
// memory, their closed world, and their persona (no-role-play).
func (definition) CheckLive(s protocol.Settings) error {
	switch {
	case s.Memory != "" && s.Memory != MemoryCumulative:
		return fmt.Errorf("%s: a live table's agents keep the memory of their [[agent]] preset (memory = \"reflective\" there)", s.Field("memory"))
	case s.ClosedWorld:
		return fmt.Errorf("%s: a live table's agents take their persona from their [[agent]] preset; write the restriction into its background", s.Field("closed_world"))
	case s.Control == ControlNoRolePlay:
		return fmt.Errorf("%s: no-role-play removes the agents' personas, which a live table takes from [[agent]] presets; use no-interaction, and agents without background", s.Field("control"))
	}
	return nil
}
