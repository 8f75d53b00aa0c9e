package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
)

// Options are the choices of a report.
type Options struct {
	// Seed draws the cross-validation folds of early stopping.
	Seed int64
	// Transitions counts the dialogue-act transitions of Figures 4 to 6
	// and the pairs of the dialogue-act stop: acts.SpeakerPairs (the
	// paper's Eq. 1, the zero value) or acts.Occurrences.
	Transitions acts.Counting
}

// Build makes every artifact the tables support, and says what it
// skipped. The tables are taken in the order of their IDs, so the same
// tables and seed give the same folds whatever order they come in.
func Build(ts []Table, o Options) Report {
	ts = slices.Clone(ts)
	slices.SortStableFunc(ts, func(a, b Table) int { return strings.Compare(a.ID, b.ID) })
	var rep Report
	add := func(a *Artifact, skip string) {
		if a != nil {
			rep.Artifacts = append(rep.Artifacts, *a)
		} else if skip != "" {
			rep.Skipped = append(rep.Skipped, skip)
		}
	}
	add(table1(ts), "Table 1 (exchange economy): no exchange tables in these runs.")
	rep.Artifacts = append(rep.Artifacts, figure2(ts)...)
	if len(ts) > 0 && len(withVote(ts)) == 0 {
		rep.Skipped = append(rep.Skipped, "Figure 2(b) (share not yet agreed): no table of these runs has a vote, so none waits for a decision.")
	}
	f3, skip := figure3(ts)
	rep.Artifacts = append(rep.Artifacts, f3...)
	add(nil, skip)
	es, skipped := earlyStopping(ts, o)
	rep.Artifacts = append(rep.Artifacts, es...)
	rep.Skipped = append(rep.Skipped, skipped...)
	if len(withPerf(ts)) == 0 {
		rep.Skipped = append(rep.Skipped, "Tables 2, 10 and 11 (early stopping): no tables of a task with a performance per round (exchange or recommendation).")
	}
	if t8 := table8(ts); t8 != nil {
		rep.Artifacts = append(rep.Artifacts, t8...)
	} else {
		rep.Skipped = append(rep.Skipped, "Table 8 (linguistic statistics): no messages in these runs.")
	}
	labelled := 0
	for _, t := range ts {
		if hasActs(t.Messages) {
			labelled++
		}
	}
	if labelled == 0 {
		rep.Skipped = append(rep.Skipped, "Table 9 and Figure 4 (dialogue acts; Figures 5 and 6 too): no message has dialogue acts.")
		return rep
	}
	add(table9(ts), "")
	rep.Artifacts = append(rep.Artifacts, figure4(ts, o.Transitions)...)
	if labelled < len(ts) {
		rep.Skipped = append(rep.Skipped, fmt.Sprintf("Dialogue acts: %d of %d tables have labelled messages.", labelled, len(ts)))
	}
	return rep
}
