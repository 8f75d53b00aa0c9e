package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserSecretBallotAndExtension plays a secret-ballot table at
// desktop and phone size: the organiser extends the message phase, and
// after the vote nobody, the organiser included, sees who voted what on
// the dashboard, in the spreadsheet or in the log with names.
func TestBrowserSecretBallotAndExtension(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	e.inViewportPair(t, func(t *testing.T, ann, bob context.Context) {
		size := fmt.Sprint(eval[int](t, ann, `window.innerWidth`))
		room, link := e.createSecret(t, ann, "Secret lunch "+size)
		enter(t, bob, link, "Bob "+size)
		e.checkExtend(t, ann, bob)

		do(t, ann, "Ann writes", sendKeys(chromedp.CSS(`#say`), "Pizza?\r"))
		do(t, bob, "Bob writes", sendKeys(chromedp.CSS(`#say`), "Sushi!\r"), waitText(`#phase`, "proposal phase"))
		for _, p := range []struct {
			tab  context.Context
			text string
		}{{ann, "Pizza"}, {bob, "Sushi"}} {
			do(t, p.tab, "propose "+p.text, sendKeys(chromedp.CSS(`#proposal-text`), p.text),
				chromedp.Click(chromedp.CSS(`#propose button`)), waitText(`#notes`, "Your proposal is recorded"))
		}
		do(t, ann, "vote phase", waitText(`#phase`, "vote phase"))
		vote(t, bob, "Sushi")
		vote(t, ann, "Pizza")
		do(t, ann, "the tally", waitText(`#posts`, "Round 1 result"), waitText(`#posts`, "The table has ended"))
		e.screenshot(t, ann, "secret-room-"+size+".png")
		for who, tab := range map[string]context.Context{"organiser": ann, "participant": bob} {
			e.checkSecretDashboard(t, tab, who, room)
		}
	})
}

// createSecret starts a secret-ballot table from the host's form, Ann
// seated, no agents, one round.
func (e *browserEnv) createSecret(t *testing.T, tab context.Context, topic string) (string, string) {
	do(t, tab, "create a secret-ballot table",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
		sendKeys(chromedp.CSS(`#topic`), topic),
		chromedp.SetValue(chromedp.CSS(`#rule`), "plurality"),
		chromedp.SetValue(chromedp.CSS(`#rounds`), "1"),
		chromedp.Click(chromedp.CSS(`input[name=secret][value=yes]`)),
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		pressStart(),
		chromedp.WaitVisible(chromedp.CSS(`#posts .post`)),
		waitText(`#phase`, "Round 1 of 1"),
	)
	return eval[string](t, tab, `location.pathname`), eval[string](t, tab, `document.querySelector('#joinlink').value`)
}

// checkExtend: the organiser, and only the organiser, extends the phase.
func (e *browserEnv) checkExtend(t *testing.T, ann, bob context.Context) {
	if eval[bool](t, bob, `!!document.querySelector('#extend')`) {
		t.Errorf("a participant sees the organiser's extend button")
	}
	do(t, ann, "extend the message phase", waitText(`#countdown`, "3:00"), chromedp.Click(chromedp.CSS(`#extend`)),
		waitText(`#posts`, "The organiser extended the message phase by 2m0s"), waitText(`#countdown`, "5:00"))
	do(t, bob, "Bob sees the extension", waitText(`#posts`, "The organiser extended"))
}

// checkSecretDashboard: the dashboard shows the tally and no voter, and
// the downloads (with names for the organiser) link no one to a ballot.
func (e *browserEnv) checkSecretDashboard(t *testing.T, tab context.Context, who, room string) {
	do(t, tab, who+"'s dashboard", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"),
		waitText(`main`, "secret ballot"), waitText(`main`, "Ballots"))
	cells := eval[[]string](t, tab, `[...document.querySelectorAll('section')].filter(s => s.querySelector('h2')?.textContent === 'Ballots')
		.flatMap(s => [...s.querySelectorAll('tbody tr')].map(r => r.cells[1].textContent))`)
	if len(cells) != 2 || cells[0] != "(secret)" || cells[1] != "(secret)" {
		t.Errorf("%s sees ballot voters %q, want two (secret)", who, cells)
	}
	if wide := eval[string](t, tab, `[...document.querySelectorAll('main > *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1).map(e => e.tagName + '.' + e.className + ' ' + e.querySelector('h2')?.textContent).join(', ')`); wide != "" {
		t.Errorf("%s's dashboard overflows the viewport: %s", who, wide)
	}
	e.screenshot(t, tab, "secret-dashboard-"+who+".png")
	names := ""
	if who == "organiser" {
		names = "&names=keep"
	}
	sheet := eval[string](t, tab, `fetch('`+room+`/log?format=sheet`+names+`').then(r => r.text())`)
	rows := 0
	for _, line := range strings.Split(strings.TrimSpace(sheet), "\n")[1:] {
		if strings.Contains(line, ",ballot,") {
			rows++
			if !strings.Contains(line, ",ballot,(secret),") {
				t.Errorf("%s's sheet names a voter: %s", who, line)
			}
		}
	}
	if rows != 2 {
		t.Errorf("%s's sheet has %d ballot rows, want 2:\n%s", who, rows, sheet)
	}
	linked := eval[string](t, tab, `fetch('`+room+`/log?format=jsonl`+names+`').then(r => r.text()).then(t => t.trim().split('\n').map(JSON.parse)
		.flatMap(e => e.type === 'ballot_cast' && e.data.ballot.choice ? [e.actor + ' chose ' + e.data.ballot.choice] :
			e.type === 'decision_made' ? (e.data.tally.ballots || []).filter(b => b.voter).map(b => b.voter + ' in the tally') : []).join('; '))`)
	if linked != "" {
		t.Errorf("%s's log links voters to ballots: %s", who, linked)
	}
	if got := eval[string](t, tab, `fetch('`+room+`/log?format=sheet`+names+`').then(r => r.status + ' ' + r.headers.get('Content-Disposition'))`); !strings.HasPrefix(got, "200 attachment") || !strings.Contains(got, "-sheet.csv") {
		t.Errorf("%s's sheet download: %s", who, got)
	}
}

// TestBrowserChartsStayReadable: a ten-round table's dashboard, at desktop
// and phone size, draws one bar per round with labelled axes and a legend,
// its labels at a readable size (at least 10 CSS pixels), and the page does
// not scroll sideways.
func TestBrowserChartsStayReadable(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tab := e.browsers(t, 1)[0]
	room := e.createRounds(t, tab, 10)
	for i := 0; i < 40 && !eval[bool](t, tab, `document.querySelector('#phase').textContent.includes('ended')`); i++ {
		e.clock.Advance(3 * time.Minute) // nobody proposes: each round closes with no candidates
	}
	do(t, tab, "the table ends", waitText(`#phase`, "ended"))
	for _, vp := range viewports {
		t.Run(vp.name, func(t *testing.T) {
			do(t, tab, "the dashboard", chromedp.EmulateViewport(vp.w, vp.h),
				chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"), waitText(`main`, "Agreement per round"))
			if n := eval[int](t, tab, `document.querySelectorAll('.chart svg rect.rejected, .chart svg rect.accepted').length`); n != 10 {
				t.Errorf("%d bars, want 10", n)
			}
			if got := eval[string](t, tab, `[...document.querySelectorAll('.chart .axislabel, .chart .legend li')].map(e => e.textContent.trim()).join('|')`); got != "agreement|round|a proposal was accepted|no winner" {
				t.Errorf("axis labels and legend: %q", got)
			}
			if px := eval[float64](t, tab, `Math.min(...[...document.querySelectorAll('.chart svg text')].map(e => e.getBoundingClientRect().height))`); px < 10 {
				t.Errorf("the smallest chart label is %.1f px high, want at least 10", px)
			}
			if eval[bool](t, tab, `document.documentElement.scrollWidth > window.innerWidth + 1`) {
				t.Errorf("the dashboard scrolls sideways")
			}
			e.screenshot(t, tab, "charts-"+vp.name+".png")
		})
	}
}

// createRounds starts a table of n rounds with nobody but its organiser
// and no agents, and returns its room's path.
func (e *browserEnv) createRounds(t *testing.T, tab context.Context, n int) string {
	do(t, tab, "create a long table",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
		sendKeys(chromedp.CSS(`#topic`), "Ten rounds"),
		chromedp.SetValue(chromedp.CSS(`#rounds`), fmt.Sprint(n)),
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		pressStart(),
		waitText(`#phase`, "Round 1 of "+fmt.Sprint(n)),
	)
	return eval[string](t, tab, `location.pathname`)
}
