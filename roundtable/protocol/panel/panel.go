package panel

import (
	"fmt"
	"strconv"
	"sync"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/sentiment"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// Name is the protocol's name.
const Name = "panel"

func init() { protocol.Register(definition{lexicon: sync.OnceValue(sentiment.NewVader)}) }

// definition is the registered protocol. Its model-free judges and its
// meters share one VADER lexicon, read-only once loaded, loaded on first use.
type definition struct {
	lexicon func() *sentiment.Vader
}

var (
	_ protocol.Headless    = definition{}
	_ protocol.Tasker      = definition{}
	_ protocol.Briefer     = definition{}
	_ protocol.Analyst     = definition{}
	_ protocol.Reporter    = definition{}
	_ protocol.StateKeeper = definition{}
	_ protocol.Gridded     = definition{}
)

// Name implements protocol.Protocol.
func (definition) Name() string { return Name }

// How the judges speak (protocol.Settings.Speaking).
const (
	// SpeakInTurn is the paper's ordered engagement: one judge at a time,
	// in seat order, each reading the opinions given before its own.
	SpeakInTurn = string(roundtable.SpeakInTurn)
	// SpeakSimultaneous has every judge speak at once, each opinion sealed
	// until the message phase closes.
	SpeakSimultaneous = "simultaneous"
)

// Schedule implements protocol.Protocol.
func (definition) Schedule(s protocol.Settings) (*roundtable.Protocol, error) {
	switch s.Speaking {
	case "", SpeakInTurn, SpeakSimultaneous:
	default:
		return nil, fmt.Errorf("%s: %q is not %s or %s", s.Field("speaking"), s.Speaking, SpeakInTurn, SpeakSimultaneous)
	}
	return Preset(s), nil
}

// Own implements protocol.Protocol: the grid of alpha and tolerance
// values, the judges' roles and the items' documents.
func (definition) Own(s protocol.Settings) []string {
	var out []string
	if len(s.Alphas) > 1 {
		out = append(out, "alpha")
	}
	if len(s.Tolerances) > 1 {
		out = append(out, "tolerance")
	}
	if len(s.Temperatures) > 0 {
		out = append(out, "temperature")
	}
	if s.Speaking != "" && s.Speaking != SpeakInTurn {
		out = append(out, "speaking")
	}
	if len(s.Roles) > 0 {
		out = append(out, "roles")
	}
	if len(s.Docs) > 0 {
		out = append(out, "item_dir")
	}
	return out
}

// Briefing implements protocol.Briefer: judges state a mental model of
// self before each opinion, and their sentiments are smoothed by alpha.
func (definition) Briefing() roundtable.Briefing {
	return roundtable.Briefing{
		Schedule: "An evaluation panel of up to {rounds} rounds: every round each member gives their opinion of the items, " +
			"then privately reports a sentiment from -1 (very negative) to 1 (very positive) for each item. The panel ends when opinions stop moving.",
		SelfModel: true,
		Smoothing: roundtable.Smoothing{Param: "alpha", Default: sentiment.DefaultAlpha},
	}
}

// Preset is the evaluation panel of Sentimental Agents: every round
// the judges state their opinions on the items one at a time in seat
// order, each reading those before (or all at once, sealed, when
// s.Speaking is simultaneous), then each privately reports a sentiment in
// -1..1 per item; the table stops when no sentiment moves by the
// tolerance. Alpha is recorded for the agents.
func Preset(s protocol.Settings) *roundtable.Protocol {
	if s.Alpha == 0 {
		s.Alpha = sentiment.DefaultAlpha
	}
	if s.Tolerance == 0 {
		s.Tolerance = sentiment.DefaultTolerance
	}
	items := s.Items
	if len(items) == 0 {
		items = []string{"the proposal"}
	}
	params := map[string]string{"alpha": strconv.FormatFloat(s.Alpha, 'g', -1, 64)}
	if len(s.Temperatures) == 1 {
		params["temperature"] = strconv.FormatFloat(s.Temperatures[0], 'g', -1, 64)
	}
	speakers := roundtable.SpeakInTurn
	if s.Speaking == SpeakSimultaneous {
		speakers, params["speaking"] = roundtable.SpeakEveryone, SpeakSimultaneous
	}
	return &roundtable.Protocol{
		Name: Name,
		Round: []roundtable.Step{
			{Phase: roundtable.PhaseMessage, Speakers: speakers},
			{Phase: roundtable.PhaseSurvey, Speakers: roundtable.SpeakEveryone, Scale: &roundtable.Scale{Question: s.Question, Min: -1, Max: 1, Items: items}},
		},
		Stop:   roundtable.StopRule{Kind: roundtable.StopConvergence, Tolerance: s.Tolerance},
		Params: params,
	}
}

// Grid implements protocol.Gridded: the alpha × tolerance × temperature
// grid of Sentimental Agents' cognitive-bias experiments.
func (definition) Grid(s protocol.Settings) ([]protocol.Cell, error) { return protocol.Grid(s) }

// LiveTables implements protocol.Live: two evaluators rate three
// candidates.
func (definition) LiveTables() []protocol.LiveTable {
	return []protocol.LiveTable{{Name: Name, Title: "Panel: rate three candidates",
		Task: roundtable.TaskSpec{Kind: "text", Topic: "Which candidate should we hire as data engineer?"}, Rounds: 5, EarlyStop: roundtable.StopNever,
		Schedule: Preset(protocol.Settings{Question: "How good a fit is each candidate?", Items: []string{"Ann", "Ben", "Cy"}, Tolerance: 1e-3}),
		Seats:    protocol.BotSeats(Name, [3]string{"Judge Reyes", "evaluator", ""}, [3]string{"Judge Okafor", "evaluator", ""})}}
}
