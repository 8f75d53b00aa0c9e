package web

import (
	"context"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// selfModelRow is one restated mental model of self (Sentimental Agents)
// on the dashboard.
type selfModelRow struct {
	Round                   int
	Who                     string
	Description, Priorities string
	Criteria                []string
}

// selfModels are the mental models of self the visitor may see on the
// dashboard, and a note on those it may not. A model is its author's
// alone until the table ends, then the researcher's (Viewer.May): the
// organiser, and only the organiser, is shown everyone's once the table
// has ended; during the table nobody sees any. note is "" for a table
// whose agents keep no models.
func (p *Platform) selfModels(ctx context.Context, roomID string, viewer roundtable.Viewer, org bool, st *roundtable.State) (rows []selfModelRow, note string) {
	if !keepsModels(st) {
		return nil, ""
	}
	if !org {
		return nil, "The agents' mental models of self are private: the organiser sees them here once the table has ended."
	}
	viewer.Researcher, viewer.Organiser = true, true
	evs, err := p.tableLog(ctx, roomID, viewer)
	if err != nil {
		p.log.Warn("dashboard self models", "room", roomID, "err", err)
		return nil, "The mental models of self could not be read."
	}
	names := nameBook(evs)
	for _, e := range evs {
		if m, ok := e.Data.(roundtable.MessagePosted); ok && m.Self != nil {
			rows = append(rows, selfModelRow{Round: m.Round, Who: names.of(e.Actor), Description: m.Self.Description,
				Priorities: m.Self.Priorities, Criteria: m.Self.Criteria})
		}
	}
	if len(rows) == 0 && st.Status != roundtable.StatusEnded {
		return nil, "The agents' mental models of self are private until the table ends; then they show here, for you only."
	}
	return rows, ""
}

// keepsModels reports whether the table's agents restate mental models of
// self: those of a protocol whose briefing asks for them (the panel's).
func keepsModels(st *roundtable.State) bool {
	b, ok := st.Config.Protocol.Briefing()
	return ok && b.SelfModel
}
