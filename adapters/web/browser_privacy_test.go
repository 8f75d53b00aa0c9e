package web_test

import (
	"context"
	"encoding/csv"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
)

// Markers planted in what a participant may not see while its phase is
// open: Ann's sealed message, her proposal, and Scribe's sealed message,
// proposal and private reasoning (bottest.Scribe).
const (
	sealedMessage  = "MARK-SEALED-MESSAGE"
	sealedProposal = "MARK-SEALED-PROPOSAL"
	agentMessage   = "Scribe here"
	agentProposal  = "Scribe's plan"
	agentReasoning = "it is short"
)

// TestBrowserLogDownloadsKeepSealed: Bob, seated at a sealed table, opens
// the dashboard through the room's own link during each open phase
// (message, proposal, vote) and downloads, from his browser session, every
// log the dashboard links to (JSONL, CSV, the sheet). None holds what is
// still sealed: Ann's and the agent's messages while the message phase is
// open, proposals and the agent's reasoning while the proposal phase is
// open, ballots while the vote is open; neither do the dashboard and the
// room pages. What was revealed is in the downloads, so they are real
// logs; the agent's reasoning never is, even after the end.
func TestBrowserLogDownloadsKeepSealed(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tabs := e.browsers(t, 2)
	ann, bob := tabs[0], tabs[1]
	room, link := e.create(t, ann, "plurality", "sealed")
	enter(t, bob, link, "Bob")

	do(t, ann, "Ann writes", sendKeys(chromedp.CSS(`#say`), sealedMessage+"\r"), waitText(`#notes`, "stays sealed"))
	do(t, bob, "Ann and the agent have written", waitText(`#acted`, "2 of 3 acted"))
	got := e.downloads(t, bob, room)
	absent(t, "message phase", got, sealedMessage, agentMessage)

	do(t, ann, "Ann closes the message phase", closeNow(), waitText(`#phase`, "proposal phase"))
	do(t, ann, "Ann proposes", sendKeys(chromedp.CSS(`#proposal-text`), sealedProposal),
		chromedp.Click(chromedp.CSS(`#propose button`)), waitText(`#notes`, "Your proposal is recorded"))
	do(t, bob, "Ann and the agent have proposed", waitText(`#phase`, "proposal phase"), waitText(`#acted`, "2 of 3 acted"))
	got = e.downloads(t, bob, room)
	absent(t, "proposal phase", got, sealedProposal, agentProposal, agentReasoning)
	present(t, "proposal phase", got, sealedMessage, agentMessage)

	do(t, ann, "Ann closes the proposal phase", closeNow(), waitText(`#phase`, "vote phase"))
	vote(t, ann, sealedProposal)
	do(t, bob, "Ann and the agent have voted", waitText(`#phase`, "vote phase"), waitText(`#acted`, "2 of 3 acted"))
	got = e.downloads(t, bob, room)
	if b := ballots(got); len(b) > 0 {
		t.Errorf("vote phase: Bob's downloads show ballots: %s", strings.Join(b, "; "))
	}
	absent(t, "vote phase", got, agentReasoning)
	present(t, "vote phase", got, sealedProposal, agentProposal)

	do(t, ann, "Ann closes the vote", closeNow(), waitText(`#posts`, "The table has ended"))
	got = e.downloads(t, bob, room)
	if b := ballots(got); len(b) != 3 {
		t.Errorf("after the end: ballots shown in %d downloads, want all 3: %s", len(b), strings.Join(b, "; "))
	}
	absent(t, "after the end", got, agentReasoning)
}

// downloads opens the dashboard from the room's link in tab and clicks
// every log link it has: Chromium downloads each file, with the tab's
// cookies, into a directory of the test's. It returns each download's
// content by its link, and the pages' HTML under "page:room" and
// "page:dashboard".
func (e *browserEnv) downloads(t *testing.T, tab context.Context, room string) map[string]string {
	t.Helper()
	out := map[string]string{}
	do(t, tab, "open the room", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")), roomShown)
	out["page:room"] = eval[string](t, tab, `document.documentElement.outerHTML`)
	// Follow the room's own link by its address: a click can land on a
	// control the live page is re-rendering (or a dialog it just opened).
	dash := eval[string](t, tab, `document.querySelector('a[href$="/dashboard"]').href`)
	do(t, tab, "follow the room's dashboard link", chromedp.Navigate(dash), waitText(`main`, "Decisions per round"))
	out["page:dashboard"] = eval[string](t, tab, `document.documentElement.outerHTML`)
	links := eval[[]string](t, tab, `[...document.querySelectorAll('a[href*="/log?"]')].map(a => a.getAttribute('href'))`)
	if len(links) < 3 {
		t.Fatalf("the dashboard links to %d logs, want JSONL, CSV and the sheet: %v", len(links), links)
	}
	for _, l := range links {
		out[l] = download(t, tab, `a[href="`+l+`"]`)
	}
	do(t, tab, "back to the room", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")), roomShown)
	return out
}

// download clicks the link css selects and returns the file Chromium
// downloads.
func download(t *testing.T, tab context.Context, css string) string {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	progress := chromedp.BrowserEvents(ctx, browser.DownloadProgress)
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: new(true),
			BrowserContextID: chromedp.FromContext(ctx).BrowserContextID}) // the tab's own browser context
		return err
	}), chromedp.Click(chromedp.CSS(css)))
	if err != nil {
		t.Fatalf("click %s: %v", css, err)
	}
	for ev, err := range progress {
		switch {
		case err != nil:
			t.Fatalf("download from %s: %v", css, err)
		case ev.State == browser.DownloadProgressStateCanceled:
			t.Fatalf("download from %s canceled", css)
		case ev.State == browser.DownloadProgressStateCompleted:
			data, err := os.ReadFile(filepath.Join(dir, ev.GUID))
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
	}
	t.Fatalf("no download from %s", css)
	return ""
}

// roomShown waits until the room shows its table's state.
var roomShown = until(`document.querySelector('#phase').textContent.trim() !== ''`, "for the room's phase")

// absent reports every marker that one of the downloads or pages shows.
func absent(t *testing.T, when string, got map[string]string, marks ...string) {
	t.Helper()
	for name, body := range got {
		for _, m := range marks {
			if strings.Contains(body, m) {
				t.Errorf("%s: %s shows the sealed %q", when, name, m)
			}
		}
	}
}

// present reports every marker missing from the JSONL download: what was
// revealed must be in it.
func present(t *testing.T, when string, got map[string]string, marks ...string) {
	t.Helper()
	for name, body := range got {
		if format(name) != "jsonl" {
			continue
		}
		for _, m := range marks {
			if !strings.Contains(body, m) {
				t.Errorf("%s: %s lacks the revealed %q", when, name, m)
			}
		}
	}
}

// ballots lists the downloads that show a ballot: a ballot_cast event
// (JSONL, CSV) or a ballot row (the sheet). A withheld ballot shows only
// as a "withheld" event.
func ballots(got map[string]string) []string {
	var out []string
	for name, body := range got {
		var shown bool
		switch format(name) {
		case "jsonl":
			shown = strings.Contains(body, `"type":"ballot_cast","actor"`)
		case "csv":
			shown = column(body, 3, "ballot_cast") // table, seq, time, type
		case "sheet":
			shown = column(body, 2, "ballot") // table, round, row
		}
		if shown {
			out = append(out, name)
		}
	}
	return out
}

// column reports whether a CSV record has value in column i.
func column(body string, i int, value string) bool {
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		return true // unreadable: count it as shown, the test fails
	}
	for _, r := range recs {
		if len(r) > i && r[i] == value {
			return true
		}
	}
	return false
}

// format is a download URL's format parameter.
func format(link string) string {
	u, err := url.Parse(link)
	if err != nil {
		return ""
	}
	return u.Query().Get("format")
}

// closeNow presses the organiser's "Close this phase now", answering its
// confirmation as the organiser would (a script stands in for the dialog,
// which the test counts as hostile input otherwise).
func closeNow() chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`)(ctx, tg); err != nil {
			return chromedp.Void{}, err
		}
		return chromedp.Click(chromedp.CSS(`button[data-command=close]:not([disabled])`))(ctx, tg)
	}
}
