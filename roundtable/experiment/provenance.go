package experiment

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// Provenance is what made a stored table, as analyze tells tables apart:
// the build, and each recipe of its model seats with the models that
// answered them (none for model-free tables). Recorded is false for a
// table older than provenance.
type Provenance struct {
	Recorded bool
	Software roundtable.Software
	Agents   []sim.ModelSeats
}

// ProvenanceOf is the provenance of the table whose state is s.
func ProvenanceOf(s *roundtable.State) Provenance {
	if s.Config.Provenance == nil {
		return Provenance{}
	}
	_, seats := sim.Provenances([]sim.Run{{Provenance: s.Config.Provenance, Answered: sim.Answered(s)}})
	condition := s.Config.Protocol != nil && s.Config.Protocol.Params["temperature"] != ""
	for i := range seats {
		seats[i].Seats = 0 // tables of another size are of the same provenance
		if condition {
			// A temperature the schedule records is a condition of the
			// run's grid (the panel's third axis), compared in its report.
			seats[i].Temperature = nil
		}
	}
	return Provenance{Recorded: true, Software: s.Config.Provenance.Software, Agents: seats}
}

// Key is p as one comparable string.
func (p Provenance) Key() string {
	b, _ := json.Marshal(p) // strings and numbers always encode
	return string(b)
}

// Markdown says p in a line of index.md.
func (p Provenance) Markdown() string {
	if !p.Recorded {
		return "not recorded (tables made before roundtable recorded provenance)"
	}
	sw := fmt.Sprintf("roundtable %s, revision %s", p.Software.Version, p.Software.Revision)
	if p.Software.Modified {
		sw += " (modified)"
	}
	if len(p.Agents) == 0 {
		return sw + "; no language model"
	}
	parts := []string{sw}
	for _, a := range p.Agents {
		parts = append(parts, agentMarkdown(a))
	}
	return strings.Join(parts, "; ")
}

func agentMarkdown(a sim.ModelSeats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "endpoint `%s` model `%s`", a.Endpoint, a.Model)
	if len(a.Answered) > 0 {
		fmt.Fprintf(&b, " (answered by `%s`)", strings.Join(a.Answered, "`, `"))
	} else {
		b.WriteString(" (no answer recorded)")
	}
	if a.Temperature != nil {
		fmt.Fprintf(&b, ", temperature %g", *a.Temperature)
	}
	if a.MaxTokens > 0 {
		fmt.Fprintf(&b, ", max tokens %d", a.MaxTokens)
	}
	fmt.Fprintf(&b, ", memory %s", a.Memory)
	if a.Window > 0 {
		fmt.Fprintf(&b, " (%d rounds)", a.Window)
	}
	fmt.Fprintf(&b, ", prompts `%s`", a.Template)
	if a.PersonaSignal != "" {
		fmt.Fprintf(&b, ", persona follows the opinion signal of `%s` (version `%s`)", a.PersonaSignal, a.PersonaSignalVersion)
	}
	return b.String()
}

// provenanceGroup is the tables of one provenance, labelled.
type provenanceGroup struct {
	Label      string
	Provenance Provenance
	Tables     []string
}

// groupByProvenance reads each table's provenance and groups the tables,
// in the order of their first table; label names group i of n (n > 1).
func groupByProvenance(ctx context.Context, st roundtable.Store, ids []string, label func(i int) string) ([]provenanceGroup, error) {
	var groups []provenanceGroup
	at := map[string]int{}
	type pending struct {
		id string
		p  Provenance
	}
	var waiting []pending
	for _, id := range ids {
		events, err := st.Load(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("load %s: %w", id, err)
		}
		s, err := roundtable.Replay(events)
		if err != nil {
			return nil, fmt.Errorf("replay %s: %w", id, err)
		}
		p := ProvenanceOf(s)
		if s.Status != roundtable.StatusEnded {
			waiting = append(waiting, pending{id, p})
			continue
		}
		i, ok := at[p.Key()]
		if !ok {
			i = len(groups)
			at[p.Key()] = i
			groups = append(groups, provenanceGroup{Provenance: p})
		}
		groups[i].Tables = append(groups[i].Tables, id)
	}
	// A table that has not ended has no results to keep apart: it joins
	// its provenance's group, else the first, where the report says it
	// has not ended (it makes a group only when no table has ended).
	for _, w := range waiting {
		i, ok := at[w.p.Key()]
		if !ok && len(groups) == 0 {
			at[w.p.Key()], groups = 0, []provenanceGroup{{Provenance: w.p}}
		}
		groups[i].Tables = append(groups[i].Tables, w.id)
	}
	for i := range groups {
		groups[i].Label = label(i)
	}
	return groups, nil
}

// provenanceMarkdown is index.md's list of the tables' provenances.
func provenanceMarkdown(groups []provenanceGroup, pooled bool) string {
	var b strings.Builder
	b.WriteString("Provenance of the tables (the build that made them; per model seat the endpoint, the model asked for and the models that answered, sampling, memory and prompt version):\n\n")
	if pooled && len(groups) > 1 {
		b.WriteString("Tables of different provenance are pooled here, as asked (--pool); each group is labelled:\n\n")
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "- %s (%d tables): %s\n", g.Label, len(g.Tables), g.Provenance.Markdown())
	}
	return strings.TrimSuffix(b.String(), "\n")
}
