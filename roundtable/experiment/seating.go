package experiment

import (
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// seating says who sits in each seat of a table of k: the bots in turn
// (a study's, or the [[agent]] presets' personas with their own agents),
// then the people's seats, played headless by the stand-in.
type seating struct {
	bots    []Seat
	humans  int
	standIn Seat
}

// seating is the experiment's seating.
func (e *Experiment) seating() seating {
	st := seating{bots: e.opt.Bots, humans: e.opt.Humans, standIn: e.opt.StandIn}
	if len(st.bots) == 0 {
		for _, p := range e.opt.Personas {
			st.bots = append(st.bots, Seat{Persona: p})
		}
	}
	return st
}

// at is the seat i of a table of k, and whether a person sits there at
// a live table.
func (st seating) at(i, k int) (Seat, bool) {
	if i >= k-st.humans {
		return st.standIn, true
	}
	if len(st.bots) == 0 {
		return Seat{}, false
	}
	return st.bots[i%len(st.bots)], false
}

// persona sets seat i of k (ps[i], numbered Agent i) to its persona: a
// persona seated more than once is numbered by its turn, a stand-in by
// its seat among the people's.
func (st seating) persona(ps []roundtable.Participant, i int) {
	k := len(ps)
	seat, person := st.at(i, k)
	pre := seat.Persona
	switch {
	case person && pre.Name == "":
		ps[i].Name = fmt.Sprintf("Person %d", i-(k-st.humans)+1)
	case pre.Name == "":
		return
	default:
		ps[i].Name = pre.Name
		if person && st.humans > 1 {
			ps[i].Name = fmt.Sprintf("%s %d", pre.Name, i-(k-st.humans)+1)
		} else if !person && i >= len(st.bots) {
			ps[i].Name = fmt.Sprintf("%s %d", pre.Name, i/len(st.bots)+1)
		}
	}
	ps[i].Background, ps[i].Goal, ps[i].Stance = pre.Background, pre.Goal, pre.Stance
	if pre.Agent != "" {
		ps[i].Agent = pre.Agent
	}
}

// checkSeating refuses people's seats that leave no bot, and model
// settings for agents that ask no model.
func (e *Experiment) checkSeating() error {
	o := e.opt
	if o.Humans < 0 || o.Humans >= o.Agents {
		return invalid("--humans: %d people's seats at a table of %d: leave at least one seat to a bot", o.Humans, o.Agents)
	}
	if e.agent == "llm" {
		return nil
	}
	for i, b := range append(append([]Seat(nil), o.Bots...), o.StandIn) {
		if b.Model != (ModelOptions{}) {
			what := fmt.Sprintf("bot[%d]", i)
			if i == len(o.Bots) {
				what = "stand_in"
			}
			kind := "not set"
			if e.agent != "" {
				kind = fmt.Sprintf("%q", e.agent)
			}
			return invalid("--agent: %s sets a model, but the agents ask no model (agent %s); --agent llm seats language models", what, kind)
		}
	}
	return nil
}

// labels are the labels of run i's table: the options', the run's
// number as "replication", and the seats the stand-ins play as
// "stand_ins" (the last Humans of the Agents seats).
func (e *Experiment) labels(i int, ps []roundtable.Participant) map[string]string {
	if len(e.opt.Labels) == 0 && e.opt.Humans == 0 {
		return nil
	}
	out := maps.Clone(e.opt.Labels)
	if out == nil {
		out = map[string]string{}
	}
	if len(e.opt.Labels) > 0 {
		out["replication"] = strconv.Itoa(i + 1)
	}
	if e.opt.Humans > 0 {
		var ids []string
		for _, p := range ps[e.opt.Agents-e.opt.Humans : e.opt.Agents] { // a protocol's own seats follow
			ids = append(ids, p.ID)
		}
		out["stand_ins"] = strings.Join(ids, ",")
	}
	return out
}
