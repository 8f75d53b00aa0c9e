package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/roundtable"
)

const hostileName = `Bob<script>alert(1)</script>`

func TestBrowserTwoPeopleAndAnAgent(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tabs := e.browsers(t, 2)
	ann, bob := tabs[0], tabs[1]
	t.Run("plurality", func(t *testing.T) { e.playPlurality(t, ann, bob) })
	t.Run("cumulative", func(t *testing.T) { e.playCumulative(t, ann, bob) })
	if n := e.dialogs.Load(); n != 0 {
		t.Errorf("%d JavaScript dialogs opened: hostile input ran", n)
	}
}

func (e *browserEnv) playPlurality(t *testing.T, ann, bob context.Context) {
	room, link := e.create(t, ann, "plurality", "sealed")
	enter(t, bob, link, hostileName)

	do(t, ann, "Ann writes", sendKeys(chromedp.CSS(`#say`), "Pizza is quick\r"), waitText(`#notes`, "stays sealed"))
	do(t, bob, "Bob writes", sendKeys(chromedp.CSS(`#say`), "I would like sushi\r"))
	do(t, ann, "messages revealed", waitText(`#posts`, "I would like sushi"), waitText(`#phase`, "proposal phase"))

	do(t, ann, "Ann proposes in the dialog",
		press("Propose"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
		sendKeys(chromedp.CSS(`#f-text`), "Pizza"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes`, "Your proposal is recorded"))
	do(t, bob, "Bob proposes in the side panel",
		sendKeys(chromedp.CSS(`#proposal-text`), "Sushi"),
		chromedp.Click(chromedp.CSS(`#propose button`)),
		waitText(`#phase`, "vote phase"))

	vote(t, bob, "Sushi")
	vote(t, bob, "Pizza") // a change of mind: the last ballot counts
	vote(t, ann, "Pizza")
	do(t, ann, "the tally", waitText(`#posts`, "Round 1 result"), waitText(`#posts`, "The table has ended"),
		waitText(`#history`, "accepted"))
	e.screenshot(t, ann, "room-plurality.png")

	if !eval[bool](t, ann, `document.querySelector('#people').textContent.includes('<script>') && !document.querySelector('#people script') && !document.querySelector('#posts script')`) {
		t.Errorf("Bob's name is not shown as plain text")
	}
	e.checkDashboard(t, ann, bob, room)
	evs := e.events(t, room)
	s, err := roundtable.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	tl := s.Rounds[0].Tally
	if s.Output == nil || s.Output.Proposal.Text != "Pizza" || tl.Counted != 3 {
		t.Errorf("output %+v, tally %+v: want Pizza from 3 ballots", s.Output, tl)
	}
	if got := countType(evs, "message_posted"); got != 3 {
		t.Errorf("%d messages recorded, want 3", got)
	}
}

func (e *browserEnv) playCumulative(t *testing.T, ann, bob context.Context) {
	room, link := e.create(t, ann, "cumulative", "live")
	enter(t, bob, link, "")

	do(t, ann, "Ann writes live", sendKeys(chromedp.CSS(`#say`), "Points, then\r"))
	do(t, bob, "Bob sees it at once", waitText(`#posts`, "Points, then"),
		sendKeys(chromedp.CSS(`#say`), "Fine by me\r"), waitText(`#phase`, "proposal phase"))
	for _, p := range []struct {
		tab  context.Context
		text string
	}{{ann, "Tacos"}, {bob, "Curry"}} {
		do(t, p.tab, "propose "+p.text, sendKeys(chromedp.CSS(`#proposal-text`), p.text),
			chromedp.Click(chromedp.CSS(`#propose button`)), waitText(`#notes`, "Your proposal is recorded"))
	}
	do(t, ann, "vote phase", waitText(`#phase`, "vote phase"))

	do(t, ann, "Ann overspends in the ballot dialog",
		press("Fill in your ballot"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-A`)),
		sendKeys(chromedp.CSS(`#f-A`), "3"),
		sendKeys(chromedp.CSS(`#f-B`), "1"),
		waitText(`#budget`, "Points used: 4 of 3"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#dialog-error`, "you have 3"),
		chromedp.SetValue(chromedp.CSS(`#f-A`), "2"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes`, "is recorded: A=2 B=1"))

	status := eval[int](t, bob, `fetch(location.pathname + '/act', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({id: 'overbudget1', kind: 'command', command: 'vote', options: {ballot: 'A=9'}})}).then(r => r.status)`)
	if status != 422 {
		t.Errorf("over-budget ballot posted directly: status %d, want 422", status)
	}
	do(t, bob, "the over-budget ballot is refused", waitText(`#notes`, "exceeds"))
	status = eval[int](t, bob, `fetch(location.pathname + '/act', {method: 'POST', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({id: 'huge1', kind: 'message', text: 'x'.repeat(1 << 20)})}).then(r => r.status)`)
	if status != 413 {
		t.Errorf("1 MB message: status %d, want 413", status)
	}

	do(t, bob, "Bob votes in the dialog",
		press("Fill in your ballot"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-A`)),
		sendKeys(chromedp.CSS(`#f-C`), "3"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#posts`, "Round 1 result"), waitText(`#posts`, "The table has ended"))
	e.screenshot(t, bob, "room-cumulative.png")

	s, err := roundtable.Replay(e.events(t, room))
	if err != nil {
		t.Fatal(err)
	}
	tl := s.Rounds[0].Tally
	if tl.Counted != 3 || len(s.Rounds[0].Rejected) == 0 && tl.Winner == "" {
		t.Errorf("tally %+v rejected %+v: want 3 ballots counted", tl, s.Rounds[0].Rejected)
	}
	for _, b := range tl.Ballots {
		if b.Points["A"] == 9 {
			t.Errorf("the over-budget ballot was counted: %+v", b)
		}
	}
}

// checkDashboard opens the table's dashboard and downloads its log: with
// names for the organiser only.
func (e *browserEnv) checkDashboard(t *testing.T, ann, bob context.Context, room string) {
	do(t, bob, "Bob's dashboard", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"),
		waitText(`main`, "Decisions per round"), waitText(`table`, "Pizza"), waitText(`main`, "human-"))
	if !eval[bool](t, bob, `document.querySelectorAll('svg rect.accepted').length === 1`) {
		t.Errorf("the chart shows no accepted round")
	}
	if got := eval[string](t, bob, `[...document.querySelectorAll('.chart .axislabel, .chart .legend li')].map(e => e.textContent.trim()).join('|')`); got != "agreement|round|a proposal was accepted|no winner" {
		t.Errorf("the chart's axis labels and legend: %q", got)
	}
	e.screenshot(t, bob, "dashboard.png")
	get := func(tab context.Context, q string) string {
		return eval[string](t, tab, `fetch('`+room+`/log?`+q+`').then(r => r.status + ' ' + r.headers.get('Content-Disposition'))`)
	}
	if got := get(bob, "format=csv&names=keep"); !strings.HasPrefix(got, "403") {
		t.Errorf("Bob downloads names: %s", got)
	}
	if got := get(bob, "format=jsonl"); !strings.HasPrefix(got, "200 attachment") {
		t.Errorf("Bob downloads the pseudonymised log: %s", got)
	}
	if got := get(ann, "format=csv&names=keep"); !strings.HasPrefix(got, "200 attachment") {
		t.Errorf("the organiser downloads names: %s", got)
	}
	do(t, bob, "back to the room", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")), waitText(`#phase`, "ended"))
}
