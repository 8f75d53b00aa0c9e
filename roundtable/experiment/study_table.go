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
	seats  int // the recipe's seats; a protocol's own seats follow them
	humans int
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
// so a live table is exactly its recipe. A model-free protocol agent
// tuned beyond its kind's defaults (a dyads weight, a panel's alpha or
// documents) is refused: a live table's agent is rebuilt from its kind
// alone.
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
	if err := liveAgents(d.plan, e.agent); err != nil {
		return t, err
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

// liveAgents refuses a protocol's model-free agent that plays other than
// a recipe that tunes nothing would have it play: live, a seat's agent is
// made from its kind alone (protocol.Agent, whose zero settings are the
// protocol's defaults), knowing no table's settings.
func liveAgents(pl plan, kind string) error {
	pp, ok := pl.(protocolPlan)
	if !ok || pp.model != nil {
		return nil
	}
	def, err := DefaultRecipe().settings(nil)
	if err != nil {
		return err
	}
	def.Protocol, def.Agent = pp.s.Protocol, kind
	plain, err := pp.h.Agent(kind, def)
	if err != nil || !reflect.DeepEqual(plain, pp.shared) {
		return fmt.Errorf("agent: %q: %w", kind, errTunedAgent)
	}
	return nil
}

// errTunedAgent says why a tuned model-free agent is not played live.
var errTunedAgent = errors.New("a live table's model-free agents play with their kind's defaults, and this recipe tunes them (a weight, bias, memory, alpha or documents); seat language models (agent = \"llm\") or run it headless (`roundtable study run`)")
