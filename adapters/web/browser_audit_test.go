package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/store"
)

// TestBrowserAuditedTable: the host starts an audited table from the
// lobby form (sentiment and stance, a statement, self-reports), two people
// and two LLM agents play it in Chromium, and the dashboard, opened before
// anyone spoke, draws the trajectories without being reloaded. The round
// ends with the self-report survey: each person answers with one click,
// the agents through their model. The dashboard shows Ann her own
// self-report, not Bob's; her log download (the organiser's) holds all
// four answers, Bob's his own with the others withheld.
func TestBrowserAuditedTable(t *testing.T) {
	requireBrowser(t)
	srv := openaitest.NewServer(judge)
	defer srv.Close()
	e := newBrowserEnvWith(t, web.Config{Agents: []string{"Scribe", "Sage"}}, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		return auditedService(t, p, db, srv.URL(), clock, "Scribe", "Sage")
	})
	tabs := e.browsers(t, 2)
	ann, bob := tabs[0], tabs[1]
	do(t, ann, "create an audited table",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
		sendKeys(chromedp.CSS(`#topic`), "Should homework go?"),
		chromedp.SetValue(chromedp.CSS(`#rounds`), "1"),
		chromedp.Click(chromedp.CSS(`input[name=agents][value=Scribe]`)),
		chromedp.Click(chromedp.CSS(`input[name=agents][value=Sage]`)),
		chromedp.Click(chromedp.CSS(`input[name=audit][value=sentiment]`)),
		chromedp.Click(chromedp.CSS(`input[name=audit][value=stance]`)),
		sendKeys(chromedp.CSS(`#audit_statement`), "Homework should be abolished."),
		chromedp.Click(chromedp.CSS(`input[name=self_report]`)),
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		pressStart(),
		chromedp.WaitVisible(chromedp.CSS(`#posts .post`)),
		waitText(`#phase`, "Round 1 of 1"),
	)
	room := eval[string](t, ann, `location.pathname`)
	link := eval[string](t, ann, `document.querySelector('#joinlink').value`)
	enter(t, bob, link, "Bob")

	dash, cancel := chromedp.NewContext(ann) // a second tab of the host's browser
	defer cancel()
	if err := chromedp.Do(dash); err != nil { // the first run sets the tab's lifetime: no timeout here
		t.Fatalf("open tab: %v", err)
	}
	do(t, dash, "open the dashboard", chromedp.Navigate(e.p.URL()+room[1:]+"/dashboard"),
		waitText(`#audit`, "Statement under audit: Homework should be abolished."))
	eval[int](t, dash, `window.notReloaded = 1`)

	do(t, ann, "Ann writes", sendKeys(chromedp.CSS(`#say`), "Homework is useful practice\r"))
	do(t, bob, "Bob writes", sendKeys(chromedp.CSS(`#say`), "I hate homework, it ruins evenings\r"))
	do(t, ann, "the proposal phase", waitText(`#phase`, "proposal phase"))
	do(t, dash, "the dashboard draws trajectories by itself",
		until(`document.querySelectorAll('#audit svg.audit-chart polyline').length > 0 && window.notReloaded === 1`, "for trajectories"))

	do(t, ann, "Ann skips", press("Skip"))
	do(t, bob, "Bob skips", press("Skip"))
	do(t, ann, "the vote", waitText(`#phase`, "vote phase"))
	vote(t, ann, "Scribe")
	vote(t, bob, "Scribe")
	do(t, ann, "the survey", waitText(`#phase`, "survey phase"))
	do(t, bob, "Bob reports his stance with one click",
		waitText(`#todo`, "Your turn: answer the survey."),
		press("strongly disagree"),
		waitText(`#notes`, "Recorded privately for round 1: strongly disagree"))
	do(t, ann, "Ann reports hers",
		press("slightly agree"),
		waitText(`#notes`, "Recorded privately for round 1"),
		waitText(`#posts`, "The table has ended"))
	do(t, dash, "the dashboard shows Ann her own self-report by itself",
		until(`document.querySelector('#audit table')?.textContent.includes('slightly agree (statement)') && window.notReloaded === 1`, "for the self-report"))
	if got := eval[string](t, dash, `document.querySelector('#audit table').textContent`); strings.Contains(got, "complement") {
		t.Errorf("Ann's dashboard shows Bob's self-report: %q", got)
	}
	e.screenshot(t, dash, "audit-dashboard.png")
	logOf := func(tab context.Context) map[string]int {
		return eval[map[string]int](t, tab, `fetch(`+jsString(room+"/log")+`).then(r => r.text()).then(t => {
			const n = {answers: 0, withheld: 0};
			for (const line of t.trim().split('\n')) {
				const e = JSON.parse(line);
				if (e.type === 'survey_answered') n.answers++;
				if (e.type === 'withheld' && e.data.type === 'survey_answered') n.withheld++;
			}
			return n })`)
	}
	if got := logOf(ann); got["answers"] != 4 || got["withheld"] != 0 {
		t.Errorf("the organiser's log download: %v, want the 4 answers", got)
	}
	if got := logOf(bob); got["answers"] != 1 || got["withheld"] != 3 {
		t.Errorf("Bob's log download: %v, want his answer and 3 withheld", got)
	}
}
