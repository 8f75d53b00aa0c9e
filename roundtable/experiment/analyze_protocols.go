package experiment

import (
	"context"
	"fmt"
	"regexp"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/report"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
)

// runSuffix is the run number sim appends to a table ID: tables whose IDs
// differ only in it are runs of one condition.
var runSuffix = regexp.MustCompile(`-\d{4}$`)

// protocolReports are the other papers' tables and figures from the ended
// protocol tables among ids, as CSV and charts: each table is measured by
// its protocol (protocol.Analyst) for the report it joins, and each
// report is written by its protocol (protocol.Reporter), in the order of
// the protocols' names. notes say what the reports leave out; used are
// the instruments the reporting protocols measure with beside in
// (protocol.Instrumented).
func protocolReports(ctx context.Context, st Store, ids []string, in protocol.Instruments) (arts []report.Artifact, notes []string, used []analysis.InstrumentVersion, err error) {
	runs := map[string]*protocol.Runs{} // by report
	for _, id := range ids {
		events, err := st.Load(ctx, id)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("load %s: %w", id, err)
		}
		s, err := roundtable.Replay(events)
		if err != nil || s.Status != roundtable.StatusEnded || s.Config.Protocol == nil {
			continue // the RoundTable report says what it left out
		}
		p, ok := protocol.Of(s.Config.Protocol)
		a, measured := p.(protocol.Analyst)
		if !ok || !measured {
			continue // RoundTable's schedule with a survey (self-reports): the RoundTable report's
		}
		owner, ok := protocol.Lookup(a.Joins())
		if _, reports := owner.(protocol.Reporter); !ok || !reports {
			continue
		}
		t := protocol.Table{Events: events, State: s, Condition: runSuffix.ReplaceAllString(id, "")}
		m, err := a.Analyze(ctx, t, in)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("measure %s: %w", id, err)
		}
		if runs[a.Joins()] == nil {
			runs[a.Joins()] = protocol.NewRuns()
			runs[a.Joins()].Instruments = in
		}
		keep, _ := owner.(protocol.StateKeeper)
		runs[a.Joins()].Add(t, m, keep != nil && keep.KeepsStates())
	}
	for _, p := range protocol.All() {
		r, ok := runs[p.Name()]
		if !ok {
			continue
		}
		a, n, err := p.(protocol.Reporter).Report(ctx, r)
		if err != nil {
			return nil, nil, nil, err
		}
		arts, notes = append(arts, a...), append(notes, n...)
		if i, ok := p.(protocol.Instrumented); ok {
			used = append(used, i.Instruments(protocol.Settings{})...)
		}
	}
	return arts, notes, used, nil
}
