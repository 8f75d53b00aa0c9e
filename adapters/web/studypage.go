package web

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// studyDash is the data of the host's study dashboard.
type studyDash struct {
	Study, Code, Cohort string
	Problems            []string // why tables of a wave the host started did not start
	Arrived             int
	Conditions          []conditionDash
	Waves               []waveDash
	Results             StudyResults
	ResultsError        string
	HasResults          bool
	ResultsPending      bool     // tables ended that the results do not count yet: they are being measured
	People              int      // names on the roster, each with a personal link
	PeopleError         string   // why the names the host sent were not added
	Offers              []string // the other studies the host may open
}

type conditionDash struct {
	Name           string
	People, Seated int
	Tables         []tableDash
}

type tableDash struct {
	N                      int
	Room, Status, Phase    string
	Round, Seated, Waiting int
	// Stalled are the names of those the open phase waits for.
	Stalled []string
}

type waveDash struct {
	N             int // from 1
	Started       bool
	Seated, Seats int
}

// serveStudy shows the host the open study: its cohort link and code, per
// condition its tables, people and progress, the waves (with Start), and
// the results per condition of its ended tables.
func (p *Platform) serveStudy(w http.ResponseWriter, r *http.Request) {
	if p.currentStudy() == nil && len(p.studyOffers()) > 0 {
		p.serveStudies(w, r, http.StatusOK, "")
		return
	}
	s, ok := p.studyHost(w, r)
	if !ok {
		return
	}
	link, _ := p.CohortURL()
	if p.public == nil {
		link = p.linkBase(r) + "c/" + s.code
	}
	d := p.studyDash(r.Context(), s)
	d.Cohort = link
	d.Problems = r.URL.Query()["problem"]
	d.Offers = slices.DeleteFunc(p.studyOffers(), func(n string) bool { return n == s.cfg.Name })
	p.render(w, http.StatusOK, "study", d)
}

// studyHost is the open study, when the visitor is the host; otherwise it
// answers the request.
func (p *Platform) studyHost(w http.ResponseWriter, r *http.Request) (*liveStudy, bool) {
	s := p.currentStudy()
	v := p.visitor(w, r)
	switch {
	case s == nil:
		p.renderMessage(w, http.StatusNotFound, "No study", "No study is open on this server: start one with `roundtable serve --study FILE`.")
	case !v.Host:
		p.renderMessage(w, http.StatusForbidden, "Host only", "Only the host (who opened the host link) sees the study and its roster.")
	default:
		return s, true
	}
	return nil, false
}

func (p *Platform) studyDash(ctx context.Context, s *liveStudy) studyDash {
	s.mu.Lock()
	d := studyDash{Study: s.cfg.Name, Code: s.code, Arrived: len(s.seats), People: len(s.people)}
	type ref struct {
		c, t int
		room string
	}
	var refs []ref
	waves := 0
	for ci, c := range s.cfg.Conditions {
		cd := conditionDash{Name: c.Name, People: c.People}
		for n := 0; ; n++ {
			t, ok := s.rooms[tableKey(c.Name, n)]
			if !ok {
				break
			}
			cd.Seated += t.seated
			cd.Tables = append(cd.Tables, tableDash{N: n + 1, Room: t.room, Seated: t.seated, Status: "not opened"})
			refs = append(refs, ref{ci, n, t.room})
			waves = max(waves, n+1)
		}
		d.Conditions = append(d.Conditions, cd)
	}
	for w := range waves {
		wd := waveDash{N: w + 1, Started: s.started[w]}
		for _, c := range s.cfg.Conditions {
			wd.Seats += c.People
			if t, ok := s.rooms[tableKey(c.Name, w)]; ok {
				wd.Seated += t.seated
			}
		}
		d.Waves = append(d.Waves, wd)
	}
	s.mu.Unlock()
	ended := 0
	for _, rf := range refs {
		if rf.room == "" {
			continue
		}
		td := &d.Conditions[rf.c].Tables[rf.t]
		st, err := p.state(ctx, rf.room, roundtable.Viewer{Organiser: true})
		if err != nil {
			td.Status = "unreadable"
			continue
		}
		pending := st.Pending()
		td.Status, td.Round, td.Waiting = string(st.Status), st.Round, len(pending)
		for _, who := range pending {
			td.Stalled = append(td.Stalled, who.Name)
		}
		switch st.Status {
		case roundtable.StatusCreated:
			td.Status = "waiting for its wave"
		case roundtable.StatusRunning:
			td.Phase = st.Phase.String()
		case roundtable.StatusEnded:
			ended++
		}
	}
	res, fresh, err := s.resultsOf(ctx, ended)
	d.Results, d.HasResults, d.ResultsPending = res, err == nil && len(res.Rows) > 0, !fresh
	if err != nil {
		d.ResultsError = err.Error()
	}
	return d
}

// serveStudyWave starts a wave's tables for the host, full or not.
func (p *Platform) serveStudyWave(w http.ResponseWriter, r *http.Request) {
	s, ok := p.studyHost(w, r)
	if !ok {
		return
	}
	if err := r.ParseForm(); err != nil {
		code, msg := bodyError(err, p.cfg.MaxBody)
		p.renderMessage(w, code, "Wave not started", msg)
		return
	}
	n, err := strconv.Atoi(r.PostForm.Get("wave"))
	s.mu.Lock()
	exists := err == nil && n >= 1 && slices.ContainsFunc(s.cfg.Conditions, func(c StudyCondition) bool {
		_, ok := s.rooms[tableKey(c.Name, n-1)]
		return ok
	})
	s.mu.Unlock()
	if !exists {
		p.renderMessage(w, http.StatusBadRequest, "Wave not started", fmt.Sprintf("There is no wave %q with people in it yet.", r.PostForm.Get("wave")))
		return
	}
	h := p.currentHandler()
	if h == nil {
		w.Header().Set("Retry-After", "1")
		p.renderMessage(w, http.StatusServiceUnavailable, "Wave not started", formWords.notRunning)
		return
	}
	next := "/study"
	if problems := p.beginWave(r.Context(), h, s, n-1); len(problems) > 0 {
		next += "?" + url.Values{"problem": problems}.Encode()
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// serveRoster sends the host the study's roster: one row per person, by
// pseudonym (no name, no browser ID).
func (p *Platform) serveRoster(w http.ResponseWriter, r *http.Request) {
	s, ok := p.studyHost(w, r)
	if !ok {
		return
	}
	s.mu.Lock()
	rows := [][]string{{"person", "condition", "table", "room", "wave", "seat", "joined", "left"}}
	for _, st := range s.seats {
		rows = append(rows, []string{st.Person, st.Condition, strconv.Itoa(st.Table + 1), st.Room, strconv.Itoa(st.Table + 1),
			strconv.Itoa(st.Seat + 1), timeCell(st.Joined), timeCell(st.Left)})
	}
	s.mu.Unlock()
	sendCSV(w, s.cfg.Name+"-roster.csv", rows)
}

// sendCSV sends rows as a CSV file to download, named filename.
func sendCSV(w http.ResponseWriter, filename string, rows [][]string) {
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", filename))
	w.Header().Set("Cache-Control", "no-store")
	_ = csv.NewWriter(w).WriteAll(rows) // the client went away: nothing to do
}

func timeCell(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
