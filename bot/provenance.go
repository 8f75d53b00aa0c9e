package bot

import "github.com/roundtable-ai/roundtable/roundtable"

// provenance is what a new live table records of its making: the running
// build, and what each bot seat that a language model plays thinks with
// (the agents are built here only to ask them; the table's own are built
// as it is seated).
func (s *Service) provenance(cfg roundtable.Config, task roundtable.Task) *roundtable.Provenance {
	p := &roundtable.Provenance{Software: roundtable.RunningSoftware()}
	for _, seat := range cfg.Participants {
		if seat.Kind != roundtable.Bot || s.deps.Agent == nil {
			continue
		}
		ag, err := s.deps.Agent(seat, task)
		if err != nil {
			continue // checkSeats has refused what cannot sit; seating reports the rest
		}
		if ap, ok := roundtable.ProvenanceOf(ag, cfg.Protocol); ok {
			if p.Agents == nil {
				p.Agents = map[string]roundtable.AgentProvenance{}
			}
			p.Agents[seat.ID] = ap
		}
	}
	return p
}
