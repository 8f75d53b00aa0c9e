package main

import (
	"context"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/panel"
	"github.com/roundtable-ai/roundtable/roundtable/sim"
)

// panelQualityUnits are the units of the panel's quality metrics.
var panelQualityUnits = map[string]string{
	"nuance":        "distinct topic keywords in one judge's arguments about one item over the run, mean over judges and items",
	"nuance/*":      "distinct topic keywords in all judges' arguments about the item over the run",
	"drift":         "1 − cosine similarity (hashed TF-IDF of keywords) of successive mental models of self, mean over rounds and judges; 0 = unchanged",
	"drift/*":       "the judge's drift: 1 − cosine of successive mental models, mean over rounds",
	"defensibility": "cosine similarity (hashed TF-IDF of keywords) of an argument to its best passage of the item's source document, 0 below 0.2, mean over arguments",
	"supported":     "share of arguments whose best passage of the item's source document reaches cosine 0.2",
}

// measurePanelQuality is the panel's measure with its quality metrics:
// nuance always, drift when the judges stated mental models, and
// defensibility when the items have source documents.
func measurePanelQuality(m *panel.Meter) sim.Measure {
	return func(t roundtable.Task, s *roundtable.State) sim.Measures {
		out := measurePanel(t, s)
		// The offline embedding never fails but on a done context, and a
		// measure has none: Background is the whole of its life.
		q, err := m.Run(context.Background(), s)
		if err != nil {
			return out
		}
		out.Scalars["nuance"] = q.Nuance
		for it, n := range q.NuanceByItem {
			out.Scalars["nuance/"+it] = n
		}
		if q.HasDrift {
			out.Scalars["drift"] = q.Drift
			for who, d := range q.DriftBy {
				out.Scalars["drift/"+who] = d
			}
		}
		if q.Defended > 0 {
			out.Scalars["defensibility"], out.Scalars["supported"] = q.Defensibility, q.Supported
		}
		return out
	}
}
