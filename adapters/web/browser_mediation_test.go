package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/mediation"
	"github.com/roundtable-ai/roundtable/store"
)

// mediationEnv is the web channel with the suite's mediation preset, its
// mediator a language model on a fake OpenAI server.
func mediationEnv(t *testing.T) *browserEnv {
	srv := openaitest.NewServer(func(_ context.Context, r *openaitest.Request) openaitest.Reply {
		step := "We propose slower streets and a market-day closure"
		if strings.Contains(r.LastUser(), "Write revision") {
			step = "We propose slower streets, a market-day closure and free delivery slots for shops"
		}
		return openaitest.JSON(map[string]string{"statement": fmt.Sprintf("%s (%s).", step, r.User)})
	})
	t.Cleanup(srv.Close)
	med := &mediation.Mediator{LLM: openai.New(openai.Config{Name: "fake", BaseURL: srv.URL(), Model: "fake", MaxRetries: -1})}
	agents := []string{"Scribe"}
	for _, m := range mediation.MediatorSeats(2, mediation.KindStitch+":llm") {
		agents = append(agents, m.Name)
	}
	pre := bottest.Mediation()
	return newBrowserEnvWith(t, web.Config{Agents: agents, Presets: []string{bottest.MediationPreset},
		PresetTables: map[string]web.TableSettings{bottest.MediationPreset: {Config: pre.Config.WithDefaults(), Agents: pre.Agents, Options: map[string]string{}}}},
		func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
			return bottest.Service(p, db, clock, func(p roundtable.Participant, _ roundtable.Task) (roundtable.Agent, error) {
				if p.Mediates() {
					return med, nil
				}
				return bottest.Scribe{}, nil
			})
		})
}

// A mediation in the browser, Ann on a laptop and Bob on a phone: each
// writes an opinion in the private box, reads the candidates in their
// own order and ranks them in the ballot dialog, then critiques the
// winner. The ranking and critique steps fit both screens.
func TestBrowserMediationRankingAndCritique(t *testing.T) {
	requireBrowser(t)
	e := mediationEnv(t)
	tabs := e.browsers(t, 2)
	ann, bob := tabs[0], tabs[1]
	do(t, ann, "a laptop's screen", chromedp.EmulateViewport(1280, 800))
	do(t, bob, "a phone's screen", chromedp.EmulateViewport(390, 844))
	do(t, ann, "Ann starts the mediation preset",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)))
	do(t, ann, "Ann chooses the mediation preset",
		chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('#preset'); s.value = `+jsString(bottest.MediationPreset)+`;
			s.dispatchEvent(new Event('change')) })()`),
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#start`)))
	room := eval[string](t, ann, `location.pathname`)
	enter(t, bob, eval[string](t, ann, `document.querySelector('#joinlink').value`), "Bob")
	do(t, ann, "Ann starts", chromedp.Click(chromedp.CSS(`#start`)), waitText(`#phase`, "Round 1 of 2"))
	shot(t, ann, "mediation-intro-laptop-1280x800.png")
	shot(t, ann, "mediation-intro-laptop-1280x800.png")
	tabsOf := map[string]context.Context{"laptop-1280x800": ann, "phone-390x844": bob}
	write := func(tab context.Context, who, text string) {
		do(t, tab, who+" writes privately", waitText(`#phase`, "private phase"), press("Write private message"),
			chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
			sendKeys(chromedp.CSS(`#f-text`), text))
	}
	send := func(tab context.Context, who string) {
		do(t, tab, who+" sends", chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "Your message is recorded"))
	}
	write(ann, "Ann", "Close the centre to cars on market days; keep deliveries in the morning.")
	send(ann, "Ann")
	write(bob, "Bob", "Slow traffic to 20 km/h but keep the streets open; shops need customers who drive.")
	send(bob, "Bob")
	for name, tab := range tabsOf {
		do(t, tab, name+" reads the candidates", waitText(`#phase`, "vote phase"), press("Read the candidates"),
			waitText(`#notes`, "in the order drawn for you"))
		do(t, tab, name+" opens the ballot", press("Fill in your ballot"), chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-rank1`)))
		fitsScreen(t, tab, name+" ranking")
		shot(t, tab, "mediation-ranking-"+name+".png")
		do(t, tab, name+" ranks", chromedp.Evaluate[chromedp.Void](`(() => { const fs = [...document.querySelectorAll('#dialog[open] select[id^=f-rank]')];
			fs.forEach((f, i) => { f.value = f.options[Math.min(i + 1, f.options.length - 1)].value; }); })()`),
			chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "is recorded"))
	}
	write(ann, "Ann", "It forgets the people who live in the centre and need to park.")
	write(bob, "Bob", "Shops still lose the market-day trade; add delivery slots.")
	for name, tab := range tabsOf {
		do(t, tab, name+" sees the statement to critique", waitText(`#posts`, "The group's statement so far"))
		fitsScreen(t, tab, name+" critique")
		if w := eval[string](t, tab, `[...document.querySelectorAll('#people li')].filter(li => li.textContent.includes('Mediator') && li.querySelector('.hint')).map(li => li.textContent).join(' | ')`); w != "" {
			t.Errorf("%s: the mediator is listed as acting in the private step: %s", name, w)
		}
		shot(t, tab, "mediation-critique-"+name+".png")
	}
	send(ann, "Ann")
	send(bob, "Bob")
	for name, tab := range tabsOf {
		do(t, tab, name+" ranks the statement and its revisions", waitText(`#phase`, "Round 2 of 2 · vote"), press("Fill in your ballot"),
			chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-rank1`)),
			chromedp.Evaluate[chromedp.Void](`(() => { const f = document.querySelector('#dialog[open] #f-rank1'); f.value = f.options[1].value; })()`),
			chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "is recorded"))
	}
	for name, tab := range tabsOf {
		do(t, tab, name+" endorses", waitText(`#phase`, "survey phase"), press("Answer"), chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-v0`)))
		fill(t, tab, "6")
		do(t, tab, name+" sends the endorsement", chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "Your answer is recorded"))
	}
	do(t, ann, "the end", waitText(`#posts`, "The group's statement: “We propose slower streets"))
	do(t, ann, "Ann's dashboard", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"), waitText(`#mediation-results`, "Endorsement of the statement"))
	if got := eval[string](t, ann, `[...document.querySelectorAll('#mediation-endorse tr')].map(r => r.textContent).join('|')`); !strings.Contains(got, "6strongly2") {
		t.Errorf("the organiser's endorsement distribution %q, want both people at 6", got)
	}
	do(t, ann, "scroll to the agreement", chromedp.Evaluate[chromedp.Void](`document.querySelector('#mediation-results').scrollIntoView()`))
	shot(t, ann, "mediation-dashboard-laptop-1280x800.png")
	s := replayRoom(t, e, room)
	if a := mediation.Agree(s); s.Status != roundtable.StatusEnded || a.Rounds != 2 || len(a.Endorsements) != 2 || a.Statement == "" {
		t.Errorf("the table is %s with agreement %+v; want it ended after one critique round with a statement and two endorsements", s.Status, a)
	}
}

// shot writes what tab shows on its screen (not the whole page) to
// ROUNDTABLE_SCREENSHOT_DIR, when set.
func shot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	dir := os.Getenv("ROUNDTABLE_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fitsScreen fails t when the room is wider than the screen or a
// dialog's field sticks out of it.
func fitsScreen(t *testing.T, tab context.Context, what string) {
	t.Helper()
	if cut := eval[string](t, tab, `[...document.querySelectorAll('#dialog[open] select, #dialog[open] textarea, #dialog[open] button, #posts .controls button')]
		.filter(c => c.getBoundingClientRect().right > innerWidth + 1).map(c => c.tagName + '#' + c.id).join(', ')`); cut != "" {
		t.Errorf("%s: %s stick out of the screen", what, cut)
	}
	if sw := eval[int](t, tab, `document.documentElement.scrollWidth`); sw > eval[int](t, tab, `innerWidth`) {
		t.Errorf("%s: the room is %d px wide", what, sw)
	}
}
