package web_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// The browser test drives Debian's Chromium through the DevTools protocol
// (chromedp: no driver binary, no Node). Set ROUNDTABLE_REQUIRE_BROWSER=1
// to fail rather than skip without it, and ROUNDTABLE_SCREENSHOT_DIR to
// keep screenshots of the room.
const chromiumPath = "/usr/bin/chromium"

// browserEnv is a running web channel with the bot service behind it.
type browserEnv struct {
	db      *store.DB
	p       *web.Platform
	clock   *bottest.Clock
	alloc   context.Context
	dialogs atomic.Int32 // JavaScript dialogs opened: hostile input ran
}

func requireBrowser(t *testing.T) {
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("ROUNDTABLE_REQUIRE_BROWSER") == "1" {
			t.Fatalf("ROUNDTABLE_REQUIRE_BROWSER=1 but %s is missing: apt-get install chromium", chromiumPath)
		}
		t.Skipf("skipping the browser test: %s is missing (apt-get install chromium; ROUNDTABLE_REQUIRE_BROWSER=1 makes this a failure)", chromiumPath)
	}
	if testing.Short() {
		t.Skip("skipping the browser test in -short mode")
	}
}

func newBrowserEnv(t *testing.T) *browserEnv {
	return newBrowserEnvWith(t, web.Config{Agents: []string{"Scribe"},
		Presets: []string{bottest.ChatroomPreset, bottest.DyadsPreset, bottest.PanelPreset}}, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		return bottest.Service(p, db, clock, nil)
	})
}

// newBrowserEnvWith runs the web channel configured by cfg (its address,
// secret and clock are the test's) behind the service svc makes.
func newBrowserEnvWith(t *testing.T, cfg web.Config, svc func(bot.Platform, *store.DB, *bottest.Clock) *bot.Service) *browserEnv {
	db, err := store.Open(filepath.Join(t.TempDir(), "rt.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := bottest.NewClock(time.Now())
	cfg.Addr, cfg.Secret, cfg.Now = "127.0.0.1:0", []byte("browser test"), clock.Now
	e := &browserEnv{db: db, p: web.New(cfg, db), clock: clock}
	serve(t, e.p, db, svc(e.p, db, clock))
	// The defaults are headless, --no-first-run and
	// --disable-background-networking; the machine has no network.
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 1000))
	alloc, stop := chromedp.NewExecAllocator(context.Background(), opts...)
	e.alloc = alloc
	t.Cleanup(stop) // before the service stops: clean-ups run last first
	return e
}

// browsers starts Chromium and returns n tabs, each in its own browser
// context (its own cookies), as n people on n machines.
func (e *browserEnv) browsers(t *testing.T, n int) []context.Context {
	root, cancel := chromedp.NewContext(e.alloc)
	t.Cleanup(cancel)
	if err := chromedp.Do(root); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	out := make([]context.Context, n)
	for i := range out {
		ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext(), chromedp.WithListener(func(ev any) {
			if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
				e.dialogs.Add(1)
			}
		}))
		t.Cleanup(cancel)
		if err := chromedp.Do(ctx); err != nil { // the first run sets the tab's lifetime: no timeout here
			t.Fatalf("open tab: %v", err)
		}
		out[i] = ctx
	}
	return out
}

// do runs steps in a tab with a bound on the whole.
func do(t *testing.T, tab context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in a tab.
func eval[T any](t *testing.T, tab context.Context, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// waitText waits until the element matching css contains text.
func waitText(css, text string) chromedp.Action[chromedp.Void] {
	return until(`[...document.querySelectorAll(`+jsString(css)+`)].some(e => e.textContent.includes(`+jsString(text)+`))`,
		"for "+css+" to show "+text)
}

// until waits until a JavaScript expression holds, across navigations:
// a poll that a page load interrupts starts again on the new page.
func until(expr, what string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		for {
			_, err := chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(50*time.Millisecond))(ctx, tg)
			switch {
			case err == nil:
				return chromedp.Void{}, nil
			case ctx.Err() != nil:
				return chromedp.Void{}, errors.New("timed out waiting " + what)
			case !strings.Contains(err.Error(), "navigated") && !strings.Contains(err.Error(), "context"):
				return chromedp.Void{}, err
			}
		}
	}
}

// sendKeys focuses the element sel matches and types text into it, as
// chromedp.SendKeys does for anything but a file input. chromedp.SendKeys
// (v0.23.0, query.go) copies the node's Attributes before it takes the
// node's lock, while the tab's event loop rewrites them on every DOM
// attribute event: the race detector caught it in a room whose buttons
// change as the table moves on. Focus and KeyEvent read no attributes.
func sendKeys[S chromedp.Selectable](sel S, text string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.Focus(sel, chromedp.NodeVisible), chromedp.KeyEvent(text))
}

// jsStrings is a JavaScript array of the strings ss.
func jsStrings(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = jsString(s)
	}
	return "[" + strings.Join(out, ", ") + "]"
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}

// press clicks the newest post's control with the given label, as a
// script does: new posts scrolling the page cannot make it miss.
func press(label string) chromedp.Action[chromedp.Void] {
	find := `[...document.querySelectorAll('#posts .controls button')].filter(b => b.textContent === ` + jsString(label) + ` && !b.disabled).slice(-1)[0]`
	return func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := until(`!!`+find, "for a "+label+" button")(ctx, tg); err != nil {
			return chromedp.Void{}, err
		}
		return chromedp.Evaluate[chromedp.Void](find+`.click()`)(ctx, tg)
	}
}

// create fills the lobby's form as the host and returns the room's path
// and join link.
func (e *browserEnv) create(t *testing.T, tab context.Context, rule, mode string) (string, string) {
	do(t, tab, "create a "+rule+" table",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
		sendKeys(chromedp.CSS(`#topic`), "Where do we eat on Friday?"),
		chromedp.SetValue(chromedp.CSS(`#rule`), rule),
		chromedp.SetValue(chromedp.CSS(`#rounds`), "1"),
		chromedp.Click(chromedp.CSS(`input[name=agents][value=Scribe]`)),
		chromedp.Click(chromedp.CSS(`input[name=mode][value=`+mode+`]`)),
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		pressStart(),
		chromedp.WaitVisible(chromedp.CSS(`#posts .post`)),
		waitText(`#phase`, "Round 1 of 1"),
	)
	loc := eval[string](t, tab, `location.pathname`)
	link := eval[string](t, tab, `document.querySelector('#joinlink').value`)
	return loc, link
}

// pressStart presses the organiser's Start in the waiting room of a new
// table, and waits for round 1.
func pressStart() chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.WaitVisible(chromedp.CSS(`#start`)), chromedp.Click(chromedp.CSS(`#start`)), waitText(`#phase`, "Round 1 of"))
}

// enter opens the join link and takes a seat: in one step with the name
// gate's "Take a seat" (unless name is empty: the browser has a name and
// presses Join).
func enter(t *testing.T, tab context.Context, link, name string) {
	do(t, tab, "open the join link", chromedp.Navigate(link))
	if name != "" {
		do(t, tab, "choose a name and take a seat",
			chromedp.WaitVisible(chromedp.CSS(`.namegate #name`)),
			sendKeys(chromedp.CSS(`.namegate #name`), name),
			chromedp.Click(chromedp.CSS(`.namegate button[value=yes]`)),
			until(`document.body.dataset.named === 'yes'`, "for the room to reload"),
			waitText(`#notes`, "You joined"))
		return
	}
	do(t, tab, "join",
		waitText(`#phase`, "Round 1 of 1"),
		chromedp.Click(chromedp.CSS(`button[data-command=join]`)),
		waitText(`#notes`, "You joined"),
	)
}

// vote chooses the candidate whose proposal is text in the newest post's
// select, presses its Vote button and waits for the confirmation.
func vote(t *testing.T, tab context.Context, text string) {
	do(t, tab, "the ballot's post", until(`[...document.querySelectorAll('#posts select')].some(s => [...s.options].some(o => o.textContent.includes(`+jsString(text)+`)))`, "for a ballot with "+text))
	id := eval[string](t, tab, `(() => { const s = [...document.querySelectorAll('#posts select')].at(-1);
		const o = [...s.options].find(o => o.textContent.includes(`+jsString(text)+`));
		if (!o) throw new Error('no option ' + `+jsString(text)+` + ' in ' + [...s.options].map(o => o.textContent));
		s.value = o.value; return o.value })()`)
	do(t, tab, "vote for "+text, press("Vote"), waitText(`#notes`, "is recorded: "+id+"."))
}

// events returns the stored log of the table in a room.
func (e *browserEnv) events(t *testing.T, roomPath string) []roundtable.Event {
	t.Helper()
	ctx := context.Background()
	id, ok, err := e.db.Lookup(ctx, "web:"+strings.TrimPrefix(roomPath, "/r/"))
	if err != nil || !ok {
		t.Fatalf("no table for %s: %v", roomPath, err)
	}
	evs, err := e.db.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func (e *browserEnv) screenshot(t *testing.T, tab context.Context, name string) {
	dir := os.Getenv("ROUNDTABLE_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	// from the top, where the sticky header belongs: scrolled, a full
	// screenshot draws it in the middle of the page
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`)); err != nil {
		t.Fatalf("scroll up for a screenshot: %v", err)
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func countType(evs []roundtable.Event, typ string) int {
	n := 0
	for _, e := range evs {
		if e.Type() == typ {
			n++
		}
	}
	return n
}
