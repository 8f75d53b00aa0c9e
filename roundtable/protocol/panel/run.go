package panel

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Items are the items a panel table evaluates: those of its survey's
// scale, or nil for a table without one.
func Items(s *roundtable.State) []string {
	if s.Config.Protocol == nil {
		return nil
	}
	for _, st := range s.Config.Protocol.Round {
		if st.Scale != nil {
			return st.Scale.Items
		}
	}
	return nil
}

// DocParam is the prefix of the task parameters that hold the items'
// source documents: "doc/ITEM" is ITEM's document.
const DocParam = roundtable.DocParam

// Docs are a table's source documents by item, from its task parameters.
func Docs(s *roundtable.State) map[string]string {
	out := map[string]string{}
	for k, v := range s.Config.Task.Params {
		if it, ok := strings.CutPrefix(k, DocParam); ok {
			out[it] = v
		}
	}
	return out
}

// Quality are a panel run's quality metrics (docs/protocol.md#quality-metrics).
type Quality struct {
	// NuanceByItem is the nuance score of every judge's arguments about
	// each item (the paper's Figure 6), Nuance its mean over the items.
	Nuance       float64
	NuanceByItem map[string]float64
	// Drift is the mean drift of the judges with two models or more;
	// DriftBy is per judge, by name. HasDrift is false when none has.
	Drift    float64
	DriftBy  map[string]float64
	HasDrift bool
	// Defensibility is the mean support of the arguments about items that
	// have a source document, Supported the share at or above the
	// threshold; Defended counts those arguments (0: no figure).
	Defensibility, Supported float64
	Defended                 int
}

// Statements are each judge's arguments about each item over the run
// (judge name -> item -> arguments), public messages only.
func (m *Meter) Statements(s *roundtable.State) map[string]map[string][]string {
	items := Items(s)
	out := map[string]map[string][]string{}
	for _, r := range s.Rounds {
		for _, msg := range r.Messages {
			if msg.Private {
				continue
			}
			name := nameOf(s, msg.From)
			if out[name] == nil {
				out[name] = map[string][]string{}
			}
			for _, it := range items {
				out[name][it] = append(out[name][it], m.Arguments(msg.Text, it, items)...)
			}
		}
	}
	return out
}

func nameOf(s *roundtable.State, id string) string {
	if p, ok := s.Participant(id); ok && p.Name != "" {
		return p.Name
	}
	return id
}

// Models are each judge's stated mental models in round order, by name.
func Models(s *roundtable.State) map[string][]roundtable.SelfModel {
	out := map[string][]roundtable.SelfModel{}
	for _, r := range s.Rounds {
		for _, msg := range r.Messages {
			if msg.Self != nil {
				name := nameOf(s, msg.From)
				out[name] = append(out[name], *msg.Self)
			}
		}
	}
	return out
}

// Run measures a panel table's quality.
func (m *Meter) Run(ctx context.Context, s *roundtable.State) (Quality, error) {
	items := Items(s)
	q := Quality{NuanceByItem: map[string]float64{}, DriftBy: map[string]float64{}}
	said := m.Statements(s)
	names := slices.Sorted(maps.Keys(said))
	docs := Docs(s)
	var support []float64
	for _, it := range items {
		var all []string
		for _, name := range names {
			all = append(all, said[name][it]...)
		}
		n, err := m.Nuance(all, items, uint64(s.Config.Seed))
		if err != nil {
			return q, fmt.Errorf("nuance of %s: %w", it, err)
		}
		q.NuanceByItem[it] = float64(n)
		q.Nuance += float64(n) / float64(len(items))
		if doc, ok := docs[it]; ok && len(all) > 0 {
			sc, err := m.Defensibility(ctx, all, doc, items)
			if err != nil {
				return q, err
			}
			support = append(support, sc...)
		}
	}
	for _, v := range support {
		q.Defensibility += v
		if v > 0 {
			q.Supported++
		}
	}
	if q.Defended = len(support); q.Defended > 0 {
		q.Defensibility /= float64(q.Defended)
		q.Supported /= float64(q.Defended)
	}
	return q, m.drift(ctx, s, &q)
}

func (m *Meter) drift(ctx context.Context, s *roundtable.State, q *Quality) error {
	n := 0
	models := Models(s)
	for _, name := range slices.Sorted(maps.Keys(models)) {
		d, ok, err := m.Drift(ctx, models[name])
		if err != nil {
			return err
		}
		if ok {
			q.DriftBy[name] = d
			q.Drift += d
			n++
		}
	}
	if q.HasDrift = n > 0; q.HasDrift {
		q.Drift /= float64(n)
	}
	return nil
}
