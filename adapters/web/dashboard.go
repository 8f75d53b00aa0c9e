package web

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"sort"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/export"
)

// dashboardPage is the data of a table's dashboard.
type dashboardPage struct {
	Room, Title, Status, Rule, Mode, Output string
	Rounds                                  int
	Names                                   bool // real names shown (the organiser's view)
	Organiser                               bool
	Decisions                               []roundView
	Ballots                                 []ballotRow
	Failures                                []failureRow
	Usage                                   []usageRow
	Secret                                  bool // secret ballots: no voter names
	Votes                                   bool // the schedule has a vote: a rule, decisions, ballots and their chart
	Chart                                   chart
	UChart                                  *chart
	Audit                                   auditView
	Models                                  []selfModelRow // mental models of self, for the organiser after the end
	ModelsNote                              string
	Panel                                   *panelView  // a panel's rankings and answers
	Surveys                                 *surveyView // the survey answers of a table that judges no items
}

type ballotRow struct {
	Round  int
	Voter  string
	Ballot string
	Reason string // the voter's reason, if it gave one
}

type failureRow struct {
	Round             int
	Who, What, Reason string
}

type usageRow struct {
	Who                               string
	Calls, Prompt, Completion, Cached int
}

// serveDashboard shows a table's decisions, ballots, failures, usage and
// charts. People are pseudonymised except for the organiser.
func (p *Platform) serveDashboard(w http.ResponseWriter, r *http.Request) {
	roomID := r.PathValue("room")
	v := p.visitor(w, r)
	if !p.mayOpen(r, roomID, v.Host) {
		p.renderMessage(w, http.StatusForbidden, "Join link needed", "Open the table's join link to see its dashboard.")
		return
	}
	viewer := viewerOf(v)
	st, err := p.state(r.Context(), roomID, viewer)
	var raw []roundtable.Event
	if err == nil {
		raw, err = p.tableLog(r.Context(), roomID, viewer)
	}
	if err != nil {
		p.log.Warn("dashboard", "room", roomID, "err", err)
		p.renderMessage(w, http.StatusNotFound, "No table yet", "This room has no stored table to show.")
		return
	}
	org := p.organiser(r, v, roomID)
	evs := raw
	if !org {
		evs = export.Pseudonymize(evs)
	}
	evs = roundtable.SecretBallots(evs, false) // nobody, the organiser included
	page := p.dashboard(roomID, st, evs, org)
	page.Usage = usage(st, actorNames(raw, evs))
	page.UChart = p.utilityChart(r.Context(), roomID, st)
	page.Panel = p.panelResults(r.Context(), roomID, st, viewer, org)
	page.Surveys = p.surveyAnswers(r.Context(), roomID, st, viewer, org)
	page.Models, page.ModelsNote = p.selfModels(r.Context(), roomID, viewer, org, st)
	if page.Audit, err = p.auditView(r.Context(), roomID, st, evs, participantID(v.ID), org); err != nil {
		p.log.Warn("dashboard audit", "room", roomID, "err", err)
	}
	p.render(w, http.StatusOK, "dashboard", page)
}

// dashboard is the page of the table whose state is st (as the visitor
// may see it) and whose log, as the page shows it (pseudonymised unless
// org, ballots secret when the table's are), is evs.
func (p *Platform) dashboard(roomID string, st *roundtable.State, evs []roundtable.Event, org bool) dashboardPage {
	d := dashboardPage{Room: roomID, Title: titleOf(st), Status: string(st.Status), Rule: string(st.Config.Rule),
		Mode: string(st.Config.Mode), Rounds: st.Config.Rounds, Names: org, Organiser: org, Secret: st.Config.Secret.Ballots,
		Votes: st.Config.Protocol.Plays(roundtable.PhaseVote)}
	if st.Output != nil {
		d.Output = st.Output.Proposal.Text
	}
	names := nameBook(evs)
	var pts []roundPoint
	for _, rec := range st.Rounds {
		if rec.Tally != nil {
			d.Decisions = append(d.Decisions, viewRound(st, rec))
			pts = append(pts, roundPoint{Round: rec.Round, Accepted: rec.Tally.Winner != "", Agreement: agreement(rec.Tally)})
		}
	}
	d.Ballots = ballots(evs, names)
	d.Failures = failures(evs, names)
	d.Chart = roundsChart(pts)
	return d
}

// names maps participant IDs to names, everyone who ever sat included.
type names map[string]string

// actorNames maps the actors of log to their names in shown, the same log
// as the page shows it (pseudonymised, say).
func actorNames(log, shown []roundtable.Event) names {
	book, n := nameBook(shown), names{}
	for i, e := range log {
		n[e.Actor] = book.of(shown[i].Actor)
	}
	return n
}

func nameBook(evs []roundtable.Event) names {
	n := names{}
	for _, e := range evs {
		switch d := e.Data.(type) {
		case roundtable.TableCreated:
			for _, p := range d.Config.Participants {
				n[p.ID] = p.Name
			}
		case roundtable.ParticipantJoined:
			n[d.Participant.ID] = d.Participant.Name
		}
	}
	return n
}

func (n names) of(id string) string {
	if s, ok := n[id]; ok && s != "" {
		return s
	}
	return id
}

// ballots lists the ballots of each round's tally (its last), round by
// round, as the log evs shows them.
func ballots(evs []roundtable.Event, n names) []ballotRow {
	tallies := map[int]roundtable.Tally{}
	var rounds []int
	for _, e := range evs {
		if dm, ok := e.Data.(roundtable.DecisionMade); ok {
			if _, seen := tallies[dm.Round]; !seen {
				rounds = append(rounds, dm.Round)
			}
			tallies[dm.Round] = dm.Tally
		}
	}
	var out []ballotRow
	for _, r := range rounds {
		for _, b := range tallies[r].Ballots {
			out = append(out, ballotRow{Round: r, Voter: n.of(b.Voter), Ballot: b.String(), Reason: b.Reason})
		}
	}
	return out
}

func failures(evs []roundtable.Event, n names) []failureRow {
	var out []failureRow
	for _, e := range evs {
		switch d := e.Data.(type) {
		case roundtable.ActionFailed:
			out = append(out, failureRow{Round: d.Round, Who: n.of(e.Actor), What: fmt.Sprintf("%s (%s phase)", d.Kind, d.Phase), Reason: d.Reason})
		case roundtable.BallotRejected:
			out = append(out, failureRow{Round: d.Round, Who: n.of(e.Actor), What: "ballot rejected", Reason: d.Reason})
		}
	}
	return out
}

func usage(st *roundtable.State, n names) []usageRow {
	sum := map[string]roundtable.Usage{}
	for _, r := range st.Rounds {
		for id, u := range r.Usage {
			sum[id] = sum[id].Add(u)
		}
	}
	var out []usageRow
	for id, u := range sum {
		out = append(out, usageRow{Who: n.of(id), Calls: u.Calls, Prompt: u.PromptTokens, Completion: u.CompletionTokens, Cached: u.CachedTokens})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Who < out[j].Who })
	return out
}

// ballotText writes a ballot as the vote command reads it.

// serveLog downloads the table's log as the visitor may see it now (an
// open phase's sealed messages, proposals and ballots are withheld from
// everyone; private reasoning only reaches the organiser's download with
// names of an ended table). Names are kept only for the organiser who asks
// for them.
func (p *Platform) serveLog(w http.ResponseWriter, r *http.Request) {
	roomID := r.PathValue("room")
	v := p.visitor(w, r)
	if !p.mayOpen(r, roomID, v.Host) {
		writeError(w, http.StatusForbidden, "open this table's join link first")
		return
	}
	q := r.URL.Query()
	sheet := q.Get("format") == "sheet" // one row per proposal, ballot or survey answer
	if sheet {
		q.Set("format", string(export.CSV))
	}
	format, err := export.ParseFormat(defaultTo(q.Get("format"), "jsonl"))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	keep, organiser, ok := p.downloadNames(w, r, v, roomID)
	if !ok {
		return
	}
	viewer := viewerOf(v)
	viewer.Researcher = keep // only the organiser may keep names
	viewer.Organiser = organiser
	st, err := p.state(r.Context(), roomID, viewer)
	var evs []roundtable.Event
	if err == nil {
		evs, err = p.tableLog(r.Context(), roomID, viewer)
	}
	if err != nil {
		writeError(w, http.StatusNotFound, "this room has no stored table")
		return
	}
	var buf bytes.Buffer
	name, write := fmt.Sprintf("%s.%s", st.ID, format), export.Write
	if sheet {
		name, write = st.ID+"-sheet.csv", func(w io.Writer, _ export.Format, evs []roundtable.Event, opt export.Options) error {
			return export.WriteSheet(w, evs, opt)
		}
	}
	if err := write(&buf, format, evs, export.Options{Pseudonymize: !keep, Viewer: viewer}); err != nil {
		p.log.Error("export", "table", st.ID, "err", err)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	sendFile(w, name, buf.Bytes())
}

func defaultTo(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
