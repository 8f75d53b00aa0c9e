package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// studiesPage lists the studies the server offers, each with Start.
type studiesPage struct {
	Offers []string
	Open   string // the study open now, if any
	Error  string
}

// SetStudies offers studies on the web page: whoever may create tables
// here (the host, or anyone when the lobby is open) opens one from
// /study, as `serve --study` opens a single study.
func (p *Platform) SetStudies(s bot.Studies) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.studies = s
}

// studyOffers are the names of the studies that may be opened.
func (p *Platform) studyOffers() []string {
	p.mu.Lock()
	s := p.studies
	p.mu.Unlock()
	if s == nil {
		return nil
	}
	return s.Names()
}

// mayOpenStudy reports whether v may open a study: the lobby's rule for
// creating tables.
func (p *Platform) mayOpenStudy(v visitor) bool { return v.Host || p.cfg.OpenLobby }

// serveStudies shows the studies offered, to those who may open one.
func (p *Platform) serveStudies(w http.ResponseWriter, r *http.Request, code int, why string) {
	if !p.mayOpenStudy(p.visitor(w, r)) {
		p.renderMessage(w, http.StatusForbidden, "Host only", "Only the host (who opened the host link) may start a study on this server.")
		return
	}
	pg := studiesPage{Offers: p.studyOffers(), Error: why}
	if s := p.currentStudy(); s != nil {
		pg.Open = s.cfg.Name
	}
	p.render(w, code, "studies", pg)
}

// serveStudyOpen opens the study the form names, for whoever may create
// tables: its cohort link works from then on. The host goes on to its
// dashboard; anyone else is shown the cohort link.
func (p *Platform) serveStudyOpen(w http.ResponseWriter, r *http.Request) {
	v := p.visitor(w, r)
	p.mu.Lock()
	studies := p.studies
	p.mu.Unlock()
	switch {
	case studies == nil:
		p.renderMessage(w, http.StatusNotFound, "No study", "This server offers no study: give it one with `roundtable serve --study FILE`.")
		return
	case !p.mayOpenStudy(v):
		p.renderMessage(w, http.StatusForbidden, "Host only", "Only the host (who opened the host link) may start a study on this server.")
		return
	}
	if err := r.ParseForm(); err != nil {
		code, msg := bodyError(err, p.cfg.MaxBody)
		p.serveStudies(w, r, code, msg)
		return
	}
	name := strings.TrimSpace(r.PostForm.Get("study"))
	link, err := studies.OpenStudy(r.Context(), name)
	if err != nil {
		var re *roundtable.Error
		if errors.As(err, &re) {
			p.serveStudies(w, r, status(re.Code), "Not started: "+re.Message)
			return
		}
		p.log.Error("study: open", "study", name, "err", err)
		p.serveStudies(w, r, http.StatusInternalServerError, "Not started: the study could not be opened; see the server's log.")
		return
	}
	if v.Host {
		http.Redirect(w, r, "/study", http.StatusSeeOther)
		return
	}
	p.renderMessage(w, http.StatusOK, "Study "+link.Name+" is open", "Everyone opens "+link.Link+", or types the code "+link.Code+" at "+link.CodeAt+".")
}
