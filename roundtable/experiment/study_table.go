package experiment

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Table is a condition's table as `study run` builds its first
// replication: its config and participants, and what each
// language-model seat's model is asked with.
type Table struct {
	Config roundtable.Config
	// Models are the options each language-model seat's agent is made
	// with, by participant ID; a model-free seat has none.
	Models map[string]ModelOptions
	// ModelFree is the Agent of the protocol's model-free seats at a live
	// table: their kind, with the settings they play with
	// (ModelFreeSeat); "" when the seats ask models.
	ModelFree string
	// Question is what a protocol's table is about as its seats play it
	// (a dyads claim's statement when the recipe names a claim, not a
	// question); "" for RoundTable's tasks.
	Question string
	seats    int // the recipe's seats; a protocol's own seats follow them
	humans   int
}

// People are the indexes in Config.Participants of the people's seats (a
// live table's; headless, the stand-in plays them): the last humans of
// the recipe's seats, before any seat of the protocol's own.
func (t Table) People() []int {
	out := make([]int, 0, t.humans)
	for i := t.seats - t.humans; i < t.seats; i++ {
		out = append(out, i)
	}
	return out
}

// FirstTable is condition c's table of replication 1, built by the
// headless experiment's own setup (New, then its design's first table),
// so a live table is exactly its recipe. A protocol's model-free agent
// that reads more of the recipe than its settings (a panel's judges, the
// items' documents) is refused: a live table's agent is rebuilt from its
// seat's Agent alone.
func (s *Study) FirstTable(c Condition) (Table, error) {
	t := Table{Models: map[string]ModelOptions{}, seats: c.Seats, humans: c.Humans}
	asked := func(p roundtable.Participant, _ roundtable.Task, o ModelOptions) (roundtable.Agent, error) {
		t.Models[p.ID] = o
		return nil, nil
	}
	o, err := s.Options(c, asked)
	if err != nil {
		return t, err
	}
	o.Runs = 1
	e, err := New(o)
	if err != nil {
		return t, err
	}
	if len(e.designs) != 1 {
		return t, fmt.Errorf("the recipe crosses %d cells of the %s protocol's grid; a live table is one", len(e.designs), c.Protocol)
	}
	d, rule := e.designs[0], o.Rules[0]
	if t.ModelFree, err = modelFreeSeat(d.plan, e.agent); err != nil {
		return t, err
	}
	if pp, ok := d.plan.(protocolPlan); ok {
		t.Question = pp.s.Question
	}
	tc, err := e.tableConfig(rule)
	if err != nil {
		return t, err
	}
	seed := sim.RunSeed(o.Seed, 0)
	tb, err := e.spec(d, rule, tc).Setup(0, seed)
	if err != nil {
		return t, err
	}
	t.Config = tb.Config
	t.Config.Seed = seed // as sim seeds it
	return t, nil
}

// modelFreeSeat is the Agent of the protocol's model-free seats at a
// live table of pl (ModelFreeSeat), "" when its seats ask models or it is
// RoundTable's. It is refused when the agent it names would not be the
// headless one (a panel's judges read the items' documents): live, a
// seat's agent is made from its Agent alone.
func modelFreeSeat(pl plan, kind string) (string, error) {
	pp, ok := pl.(protocolPlan)
	if !ok || pp.model != nil {
		return "", nil
	}
	seat := ModelFreeSeat(kind, pp.s)
	live, _, err := ModelFreeAgent(seat)
	if err != nil || !reflect.DeepEqual(live, pp.shared) {
		return "", fmt.Errorf("agent: %q: %w", kind, errModelFreeNotLive)
	}
	return seat, nil
}

// errModelFreeNotLive says why a model-free agent is not played live.
var errModelFreeNotLive = errors.New("a live table's model-free agent is made from its kind and settings alone, and this one reads more of the recipe (a panel's item documents); seat language models (agent = \"llm\") or run it headless (`roundtable study run`)")
