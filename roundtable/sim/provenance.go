package sim

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// ModelSeats are the model seats of a simulation's tables that think
// with one recipe: how many seats, over all tables, and the models their
// endpoint said answered.
type ModelSeats struct {
	roundtable.AgentProvenance
	Seats    int      `json:"seats"`
	Answered []string `json:"answered,omitempty"`
}

// provenance is the provenance a new table of tb records: the running
// build and what each seat whose agent describes itself thinks with.
func provenance(tb Table) *roundtable.Provenance {
	p := &roundtable.Provenance{Software: roundtable.RunningSoftware()}
	for _, seat := range tb.Config.Participants {
		if ap, ok := roundtable.ProvenanceOf(tb.Agents[seat.ID], tb.Config.Protocol); ok {
			if p.Agents == nil {
				p.Agents = map[string]roundtable.AgentProvenance{}
			}
			p.Agents[seat.ID] = ap
		}
	}
	return p
}

// Answered is the models that answered each participant of s, as the
// usage of its actions records them (Usage.Model); participants no model
// answered are absent.
func Answered(s *roundtable.State) map[string]string {
	var out map[string]string
	for _, r := range s.Rounds {
		for id, u := range r.Usage {
			if u.Model == "" {
				continue
			}
			if out == nil {
				out = map[string]string{}
			}
			out[id] = roundtable.Usage{Model: out[id]}.Add(roundtable.Usage{Model: u.Model}).Model
		}
	}
	return out
}

// Provenances sums up the runs' provenance: the distinct builds that
// made their tables (an older table may have recorded none), and each
// distinct recipe of their model seats with the models that answered.
func Provenances(runs []Run) ([]roundtable.Software, []ModelSeats) {
	var sw []roundtable.Software
	var seats []ModelSeats
	for _, r := range runs {
		if r.Provenance == nil {
			continue
		}
		if !slices.Contains(sw, r.Provenance.Software) {
			sw = append(sw, r.Provenance.Software)
		}
		for id, ap := range r.Provenance.Agents {
			i := slices.IndexFunc(seats, func(m ModelSeats) bool { return sameAgent(m.AgentProvenance, ap) })
			if i < 0 {
				seats = append(seats, ModelSeats{AgentProvenance: ap})
				i = len(seats) - 1
			}
			seats[i].Seats++
			for _, m := range roundtable.Models(r.Answered[id]) {
				if !slices.Contains(seats[i].Answered, m) {
					seats[i].Answered = append(seats[i].Answered, m)
				}
			}
		}
	}
	for i := range seats {
		slices.Sort(seats[i].Answered)
	}
	slices.SortFunc(seats, func(a, b ModelSeats) int {
		return cmp.Compare(agentKey(a.AgentProvenance), agentKey(b.AgentProvenance))
	})
	return sw, seats
}

func sameAgent(a, b roundtable.AgentProvenance) bool { return agentKey(a) == agentKey(b) }

// agentKey is a's JSON, which names every field of the recipe.
func agentKey(a roundtable.AgentProvenance) string {
	b, _ := json.Marshal(a) // plain strings and numbers always encode
	return string(b)
}
