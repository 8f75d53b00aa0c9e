package experiment

import (
	"cmp"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/opinion"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// protocolDesigns are the designs of a protocol's tables: one, or one per
// cell of the protocol's grid (Gridded), with its model-free agents or
// language models.
func (e *Experiment) protocolDesigns(p protocol.Protocol, h protocol.Headless) error {
	o := e.opt
	if e.agent == "" {
		e.agent = h.AgentKinds()[0]
	}
	s := o.Protocol
	s.Agent = e.agent
	pr, err := protocol.Build(s)
	if err != nil {
		return invalidErr(err)
	}
	if len(o.Rules) > 1 {
		return invalid("--rule all: the %s protocol has no vote, so there are no rules to compare", p.Name())
	}
	if _, err := opinion.BiasInstruction(s.ConfirmationBias); err != nil {
		return invalid("%s: %v", s.Field("confirmation_bias"), err)
	}
	played := s // what the table is about, for its seats, task and agents
	played.Question = cmp.Or(protocol.Question(p, s), o.Topic)
	if played.Question == "" {
		return invalid("--question: the %s protocol needs a statement, claim or brief, e.g. --question \"The earth is round.\"", p.Name())
	}
	if e.agent != "llm" && !slices.Contains(h.AgentKinds(), e.agent) {
		return invalid("--agent: %q is not an agent of the %s protocol (want %s or llm)", e.agent, p.Name(), strings.Join(h.AgentKinds(), ", "))
	}
	if _, err := h.Seats(played, sim.RunSeed(o.Seed, 0), o.Agents); err != nil {
		return invalidErr(err)
	}
	base := protocolPlan{h: h, s: played, table: roundtable.TextTask{Topic: played.Question}, seating: e.seating(), k: o.Agents}
	if t, ok := p.(protocol.Tasker); ok {
		base.table = t.Task(played)
	}
	e.protocol, e.units, e.printer = pr, h.Units(), protocolPrinter{}
	if in, ok := h.(protocol.Instrumented); ok {
		e.instruments = in.Instruments(played)
	}
	name := p.Name() + "-" + e.agent + h.Tag(s)
	cells := []protocol.Cell{{}}
	if g, ok := p.(protocol.Gridded); ok {
		if cells, err = g.Grid(s); err != nil {
			return invalidErr(err)
		}
	}
	for _, c := range cells {
		d, err := e.cellDesign(base, name, c, len(cells) > 1)
		if err != nil {
			return err
		}
		e.designs = append(e.designs, d)
	}
	if len(cells) > 1 {
		grid := *pr // the summary's schedule: each cell has its own parameters
		grid.Params = nil
		e.protocol = &grid
	}
	return nil
}

// cellDesign is the design of one grid cell (the zero Cell without a
// grid): its schedule and agents take the cell's settings, and its name
// the cell's label when there is a grid.
func (e *Experiment) cellDesign(base protocolPlan, name string, c protocol.Cell, grid bool) (*Design, error) {
	s, played := base.s, base.s
	s.Question = e.opt.Protocol.Question
	if c != (protocol.Cell{}) {
		s, played = c.In(s), c.In(played)
	}
	pr, err := protocol.Build(s)
	if err != nil {
		return nil, invalidErr(err)
	}
	d := &Design{Name: name, Protocol: pr}
	if grid {
		d.Cell = c.Label()
		d.Name += "-" + d.Cell
	}
	plan := base
	plan.s = played
	if plan.measurer, err = base.h.Measure(played); err != nil {
		return nil, err
	}
	if e.agent == "llm" {
		if e.opt.Model == nil {
			return nil, invalid("--agent llm: no language model is configured")
		}
		plan.model = e.opt.Model
		plan.memory = ModelOptions{Memory: modelMemory(played), ContextChars: played.ContextChars, PersonaUpdate: played.PersonaUpdate}
		if len(played.Temperatures) == 1 {
			plan.memory.Temperature = &played.Temperatures[0]
		}
	} else if plan.shared, err = base.h.Agent(e.agent, played); err != nil {
		return nil, invalidErr(err)
	}
	d.plan = plan
	return d, nil
}

// modelMemory is a language model's memory for a protocol's memory
// setting: its own reflection, or everything it saw.
func modelMemory(s protocol.Settings) string {
	if s.Memory == agent.MemoryReflective {
		return agent.MemoryReflective
	}
	return agent.MemoryFull
}

// protocolPlan plays a protocol's tables: one model-free agent shared by
// every seat, or a language model per seat.
type protocolPlan struct {
	h        protocol.Headless
	s        protocol.Settings
	table    roundtable.Task
	measurer sim.Measure
	shared   roundtable.Agent
	model    Model
	memory   ModelOptions
	seating  seating // each seat's endpoint, model and sampling
	k        int     // the table's seats; the protocol's own (a mediator) follow
}

func (p protocolPlan) task(int, int64) (roundtable.Task, error) { return p.table, nil }

func (p protocolPlan) seats(_ int, seed int64, k int) ([]roundtable.Participant, error) {
	return p.h.Seats(p.s, seed, k)
}

func (p protocolPlan) agents(task roundtable.Task, ps []roundtable.Participant) (map[string]roundtable.Agent, error) {
	return eachSeat(task, ps, func(i int, seat roundtable.Participant) (roundtable.Agent, error) {
		if p.model == nil {
			return p.shared, nil
		}
		var o ModelOptions
		if i < p.k { // a protocol's own seat has no bot of the recipe's
			own, _ := p.seating.at(i, p.k)
			o = own.Model
		}
		o.Memory, o.Window, o.ContextChars, o.PersonaUpdate = p.memory.Memory, 0, p.memory.ContextChars, p.memory.PersonaUpdate
		if p.memory.Temperature != nil { // the grid cell's, over the seat's
			o.Temperature = p.memory.Temperature
		}
		return p.model(seat, task, o)
	})
}

func (p protocolPlan) measure(t roundtable.Task, s *roundtable.State) sim.Measures {
	return p.measurer(t, s)
}
