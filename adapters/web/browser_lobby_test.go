package web_test

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/roundtable"
	rtvote "github.com/roundtable-ai/roundtable/roundtable/vote"
)

// formSnapshot lists every input of the create form a person can change,
// with its value (and whether it is ticked): what a form error must give
// back as it was.
const formSnapshot = `[...document.querySelector('form[action="/start"]').elements]
	.filter(e => e.name && e.type !== 'hidden' && e.type !== 'submit')
	.map(e => e.name + '=' + (e.type === 'checkbox' || e.type === 'radio' ? e.value + (e.checked ? ':on' : ':off') : e.value))`

// TestBrowserFormErrorKeepsEveryInput: a create form refused (here for a
// name that passes for a role) comes back with every input as entered,
// the audit boxes ticked included, and the reason in the page's words;
// pressing Create again, the name fixed, makes the table the form said.
func TestBrowserFormErrorKeepsEveryInput(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tab := e.browsers(t, 1)[0]
	do(t, tab, "fill in every field",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Hana Host"),
		sendKeys(chromedp.CSS(`#topic`), "Homework or not?"),
		sendKeys(chromedp.CSS(`#title`), "Homework"),
		chromedp.SetValue(chromedp.CSS(`#rule`), "borda"),
		chromedp.SetValue(chromedp.CSS(`#rounds`), "4"),
		chromedp.SetValue(chromedp.CSS(`#early_stop`), "first-agreement"),
		chromedp.SetValue(chromedp.CSS(`#message`), "90s"),
		chromedp.SetValue(chromedp.CSS(`#proposal`), "2m"),
		chromedp.SetValue(chromedp.CSS(`#vote`), "75"),
		chromedp.Click(chromedp.CSS(`input[name=agents][value=Scribe]`)),
		chromedp.Click(chromedp.CSS(`input[name=mode][value=live]`)),
		chromedp.Click(chromedp.CSS(`input[name=audit][value=sentiment]`)),
		chromedp.Click(chromedp.CSS(`input[name=audit][value=stance]`)),
		sendKeys(chromedp.CSS(`#audit_statement`), "Homework should be abolished."),
		chromedp.Click(chromedp.CSS(`input[name=self_report]`)),
		chromedp.Click(chromedp.CSS(`input[name=secret][value=yes]`)),
		chromedp.Click(chromedp.CSS(`input[name=join][value=no]`)))
	before := eval[[]string](t, tab, formSnapshot)
	do(t, tab, "create: refused for the name",
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		waitText(`.alert`, "looks like a role"))
	after := eval[[]string](t, tab, formSnapshot)
	if strings.Join(before, "\n") != strings.Join(after, "\n") {
		t.Errorf("the form after the error differs from the form as entered:\nentered:\n%s\ngiven back:\n%s", strings.Join(before, "\n"), strings.Join(after, "\n"))
	}
	for _, must := range []string{"audit=sentiment:on", "audit=stance:on", "self_report=yes:on", "name=Hana Host"} {
		if !strings.Contains(strings.Join(after, "\n"), must) {
			t.Errorf("the form given back lacks %s", must)
		}
	}
	// By script: the page given back came by a form's post, which the
	// script's wait above saw before chromedp's copy of the DOM may have:
	// a node query could still meet the old page's nodes ("Could not find
	// node with given id").
	do(t, tab, "fix the name and create again",
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#name').value = 'Hana';
			document.querySelector('form[action="/start"] button[type=submit]').click()`),
		until(`location.pathname.startsWith('/r/')`, "for the room"))
	s, err := roundtable.Replay(e.events(t, eval[string](t, tab, `location.pathname`)))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	if c.Audit == nil || strings.Join(c.Audit.Instruments, ",") != "sentiment,stance" || !c.Audit.SelfReport || c.Audit.Statement != "Homework should be abolished." {
		t.Errorf("the table's audit is %+v; want sentiment and stance on the statement, with self-reports", c.Audit)
	}
	if c.Rule != rtvote.Borda || c.Rounds != 4 || c.Mode != roundtable.Live || !c.Secret.Ballots || c.Title != "Homework" ||
		c.Durations.Message != 90*time.Second || c.Durations.Vote != 75*time.Second || len(s.Participants) != 1 || s.Participants[0].Name != "Scribe" {
		t.Errorf("the table is %+v with %v; want the form's settings, the Scribe alone seated", c, s.Participants)
	}
}
