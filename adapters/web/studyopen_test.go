package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/experiment"
)

// offeredStudy offers one study to the web page, opened on the platform
// as serve opens a study it was given.
type offeredStudy struct {
	p     *web.Platform
	study *experiment.Study
	conds []web.StudyCondition
}

func (o offeredStudy) Names() []string { return []string{o.study.Name} }

func (o offeredStudy) OpenStudy(ctx context.Context, name string) (bot.StudyLink, error) {
	if !strings.EqualFold(name, o.study.Name) {
		return bot.StudyLink{}, roundtable.Errorf(roundtable.NotFound, "no study is named %q here (studies: %s)", name, o.study.Name)
	}
	if err := o.p.OpenStudy(ctx, web.StudyConfig{Name: o.study.Name, Seed: o.study.Seed, Conditions: o.conds}); err != nil {
		return bot.StudyLink{}, err
	}
	link, code := o.p.CohortURL()
	return bot.StudyLink{Name: o.study.Name, Link: link, Code: code, CodeAt: o.p.PublicURL() + "c"}, nil
}

// TestStudyHostStartsAStudyFromThePage: the server offers a study but
// opens none; a student may neither see the offer nor start it; the host
// sees it on /study, is told why a study that is not offered does not
// start, starts the offered one, lands on its dashboard, and its cohort
// link seats people.
func TestStudyHostStartsAStudyFromThePage(t *testing.T) {
	s, conds, svc := studyService(t, classStudy)
	e := &studyEnv{study: s, liveEnv: newLiveEnvWith(t, web.Config{}, svc)}
	e.p.SetStudies(offeredStudy{p: e.p, study: s, conds: conds})
	student := e.browser(t, "Eve")
	if code, body := e.send(t, student, "GET", "/study", nil); code != http.StatusForbidden || strings.Contains(body, "Start class") {
		t.Errorf("a student GET /study: %d\n%.300s", code, body)
	}
	if code, _ := e.send(t, student, "POST", "/study/open", url.Values{"study": {"class"}}); code != http.StatusForbidden {
		t.Errorf("a student starts the study: %d, want 403", code)
	}
	if link, _ := e.p.CohortURL(); link != "" {
		t.Fatalf("a student's refused start opened the study: %s", link)
	}
	host := e.browser(t, "")
	e.send(t, host, "GET", e.p.HostURL(), nil)
	if code, body := e.send(t, host, "GET", "/study", nil); code != http.StatusOK || !strings.Contains(body, "Start class") {
		t.Fatalf("the host's /study before a start: %d\n%s", code, body)
	}
	if code, body := e.send(t, host, "POST", "/study/open", url.Values{"study": {"nope"}}); code != http.StatusNotFound || !strings.Contains(body, `id="studies-error"`) || !strings.Contains(body, "nope") {
		t.Errorf("the host starts a study not offered: %d\n%s", code, body)
	}
	code, dash := e.send(t, host, "POST", "/study/open", url.Values{"study": {"class"}})
	_, cohort := e.p.CohortURL()
	if code != http.StatusOK || cohort == "" || !strings.Contains(dash, `<strong id="cohort-code">`+cohort+`</strong>`) {
		t.Fatalf("the host starts the study: %d, code %q\n%s", code, cohort, dash)
	}
	room, err := e.arrive(&http.Client{Jar: newJar()}, cohort, "Student 1")
	if err != nil {
		t.Fatal(err)
	}
	if st := e.state(t, room); st.Config.Labels[experiment.LabelCondition] == "" {
		t.Errorf("room %s has no study condition: %v", room, st.Config.Labels)
	}
}

// TestStudyStartedByAnyoneWhenTheLobbyIsOpen: with an open lobby, where
// anyone may create tables, anyone may start an offered study, and is
// shown its cohort link and code.
func TestStudyStartedByAnyoneWhenTheLobbyIsOpen(t *testing.T) {
	s, conds, svc := studyService(t, classStudy)
	e := &studyEnv{study: s, liveEnv: newLiveEnvWith(t, web.Config{OpenLobby: true}, svc)}
	e.p.SetStudies(offeredStudy{p: e.p, study: s, conds: conds})
	student := e.browser(t, "Eve")
	if code, body := e.send(t, student, "GET", "/study", nil); code != http.StatusOK || !strings.Contains(body, "Start class") {
		t.Fatalf("a student GET /study with an open lobby: %d\n%.300s", code, body)
	}
	code, page := e.send(t, student, "POST", "/study/open", url.Values{"study": {"class"}})
	link, cohort := e.p.CohortURL()
	if code != http.StatusOK || cohort == "" || !strings.Contains(page, link) || !strings.Contains(page, cohort) {
		t.Errorf("a student starts the study with an open lobby: %d, code %q\n%s", code, cohort, page)
	}
	if code, _ := e.send(t, student, "GET", "/study", nil); code != http.StatusForbidden {
		t.Errorf("a student sees the dashboard of the study they started: %d, want 403 (it is the host's)", code)
	}
}
