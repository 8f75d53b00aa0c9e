package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/adapters/web"
)

// TestBrowserStudyOnAPhone: on a 390-pixel phone, a student types the
// study's code, gives a name, takes a seat and lands in the room, where
// the table waits for its wave; the host's study dashboard fits the
// phone, shows the student's table and offers to start the wave, and
// takes a pasted roster of names for personal links.
func TestBrowserStudyOnAPhone(t *testing.T) {
	requireBrowser(t)
	s, conds, svc := studyService(t, classStudy)
	e := newBrowserEnvWith(t, web.Config{}, svc)
	openStudy(t, e.p, e.db, s, conds)
	_, code := e.p.CohortURL()
	tabs := e.browsers(t, 2)
	phone, host := tabs[0], tabs[1]
	for _, tab := range tabs {
		do(t, tab, "a phone's screen", chromedp.EmulateViewport(390, 844))
	}
	do(t, phone, "the student types the code and takes a seat",
		chromedp.Navigate(e.p.URL()+"c"),
		chromedp.WaitVisible(chromedp.CSS(`#code`)),
		chromedp.SendKeys(chromedp.CSS(`#code`), code),
		chromedp.Submit(chromedp.CSS(`#code`)),
		chromedp.WaitVisible(chromedp.CSS(`#cohort-join`)))
	e.screenshot(t, phone, "study-cohort-390.png")
	do(t, phone, "the student takes a seat",
		chromedp.SendKeys(chromedp.CSS(`#name`), "Bob"),
		chromedp.Click(chromedp.CSS(`#cohort-join button`)),
		chromedp.WaitVisible(chromedp.CSS(`#waiting`)))
	if w := eval[int](t, phone, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the room is %d pixels wide on a 390-pixel phone", w)
	}
	do(t, host, "the host opens the dashboard",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.Navigate(e.p.URL()+"study"),
		waitText(`#waves`, "Start wave 1"),
		waitText(`.condition`, "1 seated"))
	e.screenshot(t, host, "study-dashboard-390.png")
	if w := eval[int](t, host, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the study dashboard is %d pixels wide on a 390-pixel phone", w)
	}
	if got := eval[string](t, host, `document.querySelector('#cohort-code').textContent`); got != code {
		t.Errorf("the dashboard shows the code %q, want %q", got, code)
	}
	do(t, host, "the host pastes a roster of names",
		chromedp.SendKeys(chromedp.CSS(`#roster-names`), "Ada Lovelace\nAlan Turing with a rather long name indeed\n"),
		chromedp.Click(chromedp.CSS(`#people button`)),
		waitText(`#people`, "2 names have a personal link"))
	e.screenshot(t, host, "study-people-390.png")
	if w := eval[int](t, host, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the dashboard with personal links is %d pixels wide on a 390-pixel phone", w)
	}
}
