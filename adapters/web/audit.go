package web

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"net/http"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/audit"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

// auditView is the dashboard's audit section.
type auditView struct {
	Room, Statement   string
	On, Organiser     bool
	Measured, Missing int
	Flags             []auditFlag
	Sentiment, Stance template.HTML // SVG built by package audit, names escaped
	Reports           []selfReportRow
}

type auditFlag struct {
	Name, Assigned string
	Changes        int
}

type selfReportRow struct {
	Who, Label string
	Round      int
}

// auditView reads the audit of a table whose log is evs as viewer who may
// see it (pseudonymised unless org). Self-reports are survey answers: the
// log shows the viewer its own only, and old self-report annotations are
// kept to their author alike.
func (p *Platform) auditView(ctx context.Context, roomID string, st *roundtable.State, evs []roundtable.Event, who string, org bool) (auditView, error) {
	v := auditView{Room: roomID, Organiser: org, On: st.Config.Audit != nil}
	if !v.On {
		return v, nil
	}
	v.Statement = st.Config.Audit.Statement
	anns, err := p.annotations(ctx, roomID, evs, roundtable.Viewer{Participant: who}, org)
	if err != nil {
		return v, err
	}
	t, err := audit.Build(evs, anns, 0)
	if err != nil {
		return v, err
	}
	for _, a := range anns {
		if a.Instrument != audit.SelfReportInstrument {
			v.Measured++
		}
	}
	v.Missing = t.Missing
	for _, pt := range t.Participants {
		if pt.Changes > 0 {
			v.Flags = append(v.Flags, auditFlag{Name: pt.Name, Assigned: pt.Assigned.Label(), Changes: pt.Changes})
		}
		for _, r := range pt.SelfReports {
			v.Reports = append(v.Reports, selfReportRow{Who: pt.Name, Round: r.Round, Label: r.Level.Label()})
		}
	}
	v.Sentiment = template.HTML(t.SVG(audit.SentimentS)) // #nosec: built with escaped names
	v.Stance = template.HTML(t.SVG(audit.StanceLevel))
	return v, nil
}

// annotations returns the annotations of the table in a room that viewer
// v may be shown (audit.Visible: the bot decides), pseudonymised like evs
// unless names.
func (p *Platform) annotations(ctx context.Context, roomID string, evs []roundtable.Event, v roundtable.Viewer, names bool) ([]roundtable.Annotation, error) {
	if p.tables == nil {
		return nil, nil
	}
	anns, err := p.tables.Annotations(ctx, roomID, v)
	if err != nil || names {
		return anns, err
	}
	return export.PseudonymizeAnnotations(evs, anns)
}

// serveAudit renders the dashboard's audit section alone; the dashboard
// fetches it every few seconds so the trajectories update live.
func (p *Platform) serveAudit(w http.ResponseWriter, r *http.Request) {
	roomID, v, st, evs, ok := p.auditedRoom(w, r)
	if !ok {
		return
	}
	org := p.organiser(r, v, roomID)
	if !org {
		evs = export.Pseudonymize(evs)
	}
	av, err := p.auditView(r.Context(), roomID, st, evs, participantID(v.ID), org)
	if err != nil {
		p.log.Error("audit", "table", st.ID, "err", err)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	p.render(w, http.StatusOK, "audit-body", av)
}

// serveAuditLog downloads the table's audit (its annotations) as JSON
// Lines, pseudonymised unless the organiser asks for names. Self-reports
// are in the log (survey answers, see serveLog).
func (p *Platform) serveAuditLog(w http.ResponseWriter, r *http.Request) {
	roomID, v, st, evs, ok := p.auditedRoom(w, r)
	if !ok {
		return
	}
	keep, organiser, ok := p.downloadNames(w, r, v, roomID)
	if !ok {
		return
	}
	anns, err := p.annotations(r.Context(), roomID, evs, roundtable.Viewer{Participant: participantID(v.ID), Organiser: organiser}, true)
	var buf bytes.Buffer
	if err == nil {
		err = export.WriteAnnotations(&buf, evs, anns, export.Options{Pseudonymize: !keep})
	}
	if err != nil {
		p.log.Error("audit export", "table", st.ID, "err", err)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	sendFile(w, fmt.Sprintf("%s.audit.jsonl", st.ID), buf.Bytes())
}

// auditedRoom answers a request for a room's audit: the room, its visitor
// and its stored table, or ok=false after writing the refusal.
func (p *Platform) auditedRoom(w http.ResponseWriter, r *http.Request) (string, visitor, *roundtable.State, []roundtable.Event, bool) {
	roomID := r.PathValue("room")
	v := p.visitor(w, r)
	if !p.mayOpen(r, roomID, v.Host) {
		writeError(w, http.StatusForbidden, "open this table's join link first")
		return roomID, v, nil, nil, false
	}
	st, err := p.state(r.Context(), roomID, viewerOf(v))
	var evs []roundtable.Event
	if err == nil {
		evs, err = p.tableLog(r.Context(), roomID, viewerOf(v))
	}
	if err != nil {
		writeError(w, http.StatusNotFound, "this room has no stored table")
		return roomID, v, nil, nil, false
	}
	return roomID, v, st, evs, true
}
