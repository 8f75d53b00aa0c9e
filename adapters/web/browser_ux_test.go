package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	rtvote "github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// viewports are the sizes people use: a laptop and a phone.
var viewports = []struct {
	name string
	w, h int64
}{{"1280x800", 1280, 800}, {"390x844", 390, 844}}

// inViewportPair runs f with two fresh tabs (two people) of each
// viewport size.
func (e *browserEnv) inViewportPair(t *testing.T, f func(t *testing.T, ann, bob context.Context)) {
	for _, v := range viewports {
		t.Run(v.name, func(t *testing.T) {
			tabs := e.browsers(t, 2)
			for _, tab := range tabs {
				do(t, tab, "set the viewport", chromedp.EmulateViewport(v.w, v.h))
			}
			f(t, tabs[0], tabs[1])
		})
	}
}

// inViewport runs f in a fresh tab of each viewport size.
func (e *browserEnv) inViewport(t *testing.T, f func(t *testing.T, tab context.Context)) {
	for _, v := range viewports {
		t.Run(v.name, func(t *testing.T) {
			tab := e.browsers(t, 1)[0]
			do(t, tab, "set the viewport", chromedp.EmulateViewport(v.w, v.h))
			f(t, tab)
		})
	}
}

const exchangePreset = "exchange-economy"

// newExchangeEnv serves the exchange-economy preset as `roundtable serve`
// does: a person and two utility traders, majority rule over 5 rounds,
// while the server's defaults are plurality over 3 rounds with the Scribe.
func newExchangeEnv(t *testing.T) *browserEnv {
	defaults := roundtable.Config{Rule: rtvote.Plurality, Rounds: 3, Mode: roundtable.Sealed,
		Durations: roundtable.Durations{Message: 3 * time.Minute, Proposal: 3 * time.Minute, Vote: 2 * time.Minute}}
	agents := map[string]roundtable.Participant{"Scribe": {ID: "agent:scribe", Name: "Scribe", Kind: roundtable.Bot, Agent: "scribe"}}
	traders := []string{"Trader 1", "Trader 2"}
	for i, name := range traders {
		agents[name] = roundtable.Participant{ID: fmt.Sprintf("agent:trader-%d", i+1), Name: name, Kind: roundtable.Bot, Agent: "utility"}
	}
	preset := defaults
	preset.Title = "Exchange economy"
	preset.Task = roundtable.TaskSpec{Kind: "exchange", Topic: "Share out three goods", Params: map[string]string{"seats": "3"}}
	preset.Rule, preset.Rounds = rtvote.Majority, 5
	cfg := bot.Config{Defaults: defaults, Agents: agents, DefaultAgents: []string{"Scribe"}, Policy: bot.Policy{Manager: true},
		Presets: map[string]bot.Preset{exchangePreset: {Name: exchangePreset, Config: preset, Agents: traders}}}
	wcfg := web.Config{Agents: []string{"Scribe", "Trader 1", "Trader 2"}, Presets: []string{exchangePreset},
		Defaults:     web.TableSettings{Config: defaults.WithDefaults(), Agents: cfg.DefaultAgents},
		PresetTables: map[string]web.TableSettings{exchangePreset: {Config: preset.WithDefaults(), Agents: traders}}}
	return newBrowserEnvWith(t, wcfg, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		deps := bot.Deps{Store: db, Clock: clock, Task: func(spec roundtable.TaskSpec, seats int) (roundtable.Task, error) {
			if spec.Kind == "exchange" {
				return exchange.NewTask(3, exchange.Asymmetric)
			}
			return roundtable.TextTask{Topic: spec.Topic}, nil
		}, Agent: func(p roundtable.Participant, task roundtable.Task) (roundtable.Agent, error) {
			if x, ok := task.(*exchange.Task); ok && p.Agent == "utility" {
				return &exchange.UtilityAgent{Task: x}, nil
			}
			return bottest.Scribe{}, nil
		}}
		return bot.New(cfg, deps, p)
	})
}

func TestBrowserPresetSeatsItsAgentsAndKeepsItsSettings(t *testing.T) {
	requireBrowser(t)
	e := newExchangeEnv(t)
	e.inViewport(t, func(t *testing.T, tab context.Context) {
		do(t, tab, "choose the preset",
			chromedp.Navigate(e.p.HostURL()),
			chromedp.WaitVisible(chromedp.CSS(`#preset`)),
			chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
			chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('#preset'); s.value = '`+exchangePreset+`';
				s.dispatchEvent(new Event('change')); })()`))
		form := eval[string](t, tab, `[document.querySelector('#rule').value, document.querySelector('#rounds').value,
			...[...document.querySelectorAll('input[name=agents]:checked')].map(b => b.value)].join('|')`)
		if form != "majority|5|Trader 1|Trader 2" {
			t.Errorf("the form after choosing the preset: %s; want majority|5|Trader 1|Trader 2", form)
		}
		do(t, tab, "create the table",
			chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
			pressStart(),
			waitText(`#people`, "Trader 2"),
			waitText(`#phase`, "Round 1 of 5"),
			waitText(`#notes`, "Only you see this: You are agent 1"))
		s, err := roundtable.Replay(e.events(t, eval[string](t, tab, `location.pathname`)))
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Participants) != 3 || s.Config.Rule != rtvote.Majority || s.Config.Rounds != 5 {
			t.Errorf("the table seats %+v under %s over %d rounds; want Ann and two traders, majority, 5", s.Participants, s.Config.Rule, s.Config.Rounds)
		}
	})
}

// TestBrowserInputIsRespected: a refused entry stays in its field with
// the reason beside it; a proposal can be changed until its phase closes;
// controls that no longer apply are disabled or hidden; the ballot form
// says what each letter stands for.
func TestBrowserInputIsRespected(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	e.inViewportPair(t, func(t *testing.T, ann, bob context.Context) {
		room, link := e.create(t, ann, "cumulative", "sealed")
		do(t, bob, "Bob enters without joining", chromedp.Navigate(link),
			chromedp.WaitVisible(chromedp.CSS(`.namegate #name`)),
			sendKeys(chromedp.CSS(`.namegate #name`), "Bob"),
			chromedp.Click(chromedp.CSS(`.namegate button[value=no]`)),
			until(`document.body.dataset.named === 'yes'`, "for the room to reload"),
			waitText(`#phase`, "message phase"),
			sendKeys(chromedp.CSS(`#say`), "A thought I typed with care\r"),
			waitText(`#say-error`, "you have not joined"))
		if got := eval[string](t, bob, `document.querySelector('#say').value.trim()`); got != "A thought I typed with care" {
			t.Errorf("the refused message's field holds %q", got)
		}
		do(t, bob, "Bob joins, and Join goes away", chromedp.Click(chromedp.CSS(`button[data-command=join]`)),
			waitText(`#notes`, "You joined"), until(`document.querySelector('button[data-command=join]').hidden`, "for Join to hide"),
			until(`document.title.startsWith('(Your turn)') && document.querySelector('#favicon').href.endsWith('favicon-turn.svg')`, "for the title and icon to say it is Bob's turn"),
			waitText(`#todo`, "Your turn: write your message"),
			chromedp.Click(chromedp.CSS(`#say-send`)), waitText(`#notes`, "stays sealed"),
			until(`!document.title.startsWith('(Your turn)')`, "for the title to drop the turn signal"),
			until(`document.querySelector('#say').value === '' && document.querySelector('#say-error').textContent === ''`, "for the sent message to clear"))
		const propFirst = `document.querySelector('#propcard').getBoundingClientRect().top < document.querySelector('#posts').getBoundingClientRect().top`
		if eval[bool](t, ann, `innerWidth <= 900 && `+propFirst) {
			t.Error("on a phone the proposal box comes before the conversation in the message phase")
		}
		do(t, ann, "Ann writes", sendKeys(chromedp.CSS(`#say`), "Pizza?\r"), waitText(`#phase`, "proposal phase"),
			until(`!document.querySelector('#proposal-text').disabled && document.querySelector('#ballot-text').disabled`, "for only the proposal box to be enabled"),
			until(`innerWidth > 900 || `+propFirst, "for the proposal box to come first on a phone"))
		do(t, bob, "Bob proposes, then corrects", waitText(`#phase`, "proposal phase"),
			sendKeys(chromedp.CSS(`#proposal-text`), "Suhsi"), chromedp.Click(chromedp.CSS(`#propose-send`)),
			waitText(`#notes`, "Your proposal is recorded"),
			sendKeys(chromedp.CSS(`#proposal-text`), "Sushi"), chromedp.Click(chromedp.CSS(`#propose-send`)),
			until(`[...document.querySelectorAll('#notes li')].filter(l => l.textContent.includes('Your proposal is recorded')).length === 2`, "for the second confirmation"))
		do(t, ann, "Ann proposes; the vote opens", sendKeys(chromedp.CSS(`#proposal-text`), "Pizza"),
			chromedp.Click(chromedp.CSS(`#propose-send`)), waitText(`#phase`, "vote phase"),
			until(`[...document.querySelectorAll('#posts [data-control$=":prop"]')].every(b => b.disabled)`, "for the Propose buttons to be disabled"),
			press("Fill in your ballot"),
			chromedp.WaitVisible(chromedp.CSS(`#dialog[open] .cands`)))
		do(t, bob, "Bob votes by typing the command", waitText(`#phase`, "vote phase"),
			sendKeys(chromedp.CSS(`#say`), "/roundtable vote A=2 B=1\r"), waitText(`#notes`, "is recorded: A=2 B=1"))
		cands := eval[string](t, ann, `document.querySelector('#dialog .cands').textContent`)
		if !strings.Contains(cands, "Pizza") || !strings.Contains(cands, "Sushi") || strings.Contains(cands, "Suhsi") {
			t.Errorf("the ballot form lists %q; want Pizza and Sushi, not the corrected Suhsi", cands)
		}
		if w, vw := eval[int](t, ann, `document.documentElement.scrollWidth`), eval[int](t, ann, `window.innerWidth`); w > vw {
			t.Errorf("the page is %d px wide in a %d px viewport", w, vw)
		}
		s, err := roundtable.Replay(e.events(t, room))
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, p := range s.Rounds[0].Proposals {
			texts = append(texts, p.Proposal.Text)
		}
		if got := strings.Join(texts, "|"); !strings.Contains(got, "Sushi|Pizza") || strings.Contains(got, "Suhsi") {
			t.Errorf("proposals %v; want Bob's corrected Sushi (in his first one's place) and Ann's Pizza", texts)
		}
	})
}

// TestBrowserPhoneFirstRoom: a 5,000-character unbroken message widens no
// page, the status bar stays in view when the newest post is, on a phone
// the action cards come before the conversation, and the dashboard fits.
func TestBrowserPhoneFirstRoom(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	e.inViewport(t, func(t *testing.T, tab context.Context) {
		w := eval[int](t, tab, `window.innerWidth`)
		room, _ := e.create(t, tab, "plurality", "live")
		do(t, tab, "a long unbroken message", chromedp.SetValue(chromedp.CSS(`#say`), strings.Repeat("W", 5000)),
			chromedp.Click(chromedp.CSS(`#say-send`)), waitText(`#posts`, strings.Repeat("W", 100)))
		if sw := eval[int](t, tab, `document.documentElement.scrollWidth`); sw > w {
			t.Errorf("the room is %d px wide in a %d px window", sw, w)
		}
		visible := eval[bool](t, tab, `(() => { document.querySelector('#posts li:last-child').scrollIntoView();
			const r = document.querySelector('#phase').getBoundingClientRect();
			return r.top >= 0 && r.bottom <= window.innerHeight })()`)
		if !visible {
			t.Errorf("the phase is out of view when the newest post is in view")
		}
		if w < 900 && !eval[bool](t, tab, `document.querySelector('#seat').getBoundingClientRect().top < document.querySelector('#posts').getBoundingClientRect().top`) {
			t.Errorf("on a phone the seat card is below the conversation")
		}
		do(t, tab, "the dashboard", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"), waitText(`main`, "Decisions per round"),
			waitText(`.chart .empty`, "No round has been decided yet"))
		if sw := eval[int](t, tab, `document.documentElement.scrollWidth`); sw > w {
			t.Errorf("the dashboard is %d px wide in a %d px window", sw, w)
		}
	})
}

func TestBrowserGuestsMeetNoCreateForm(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	e.inViewport(t, func(t *testing.T, tab context.Context) {
		do(t, tab, "open the plain address", chromedp.Navigate(e.p.URL()), waitText(`main`, "Open the join link"))
		if eval[bool](t, tab, `!!document.querySelector('form[action="/start"]')`) {
			t.Errorf("a guest sees the create form")
		}
	})
}

// TestBrowserWarnsAMinuteBeforeThePhaseCloses: a participant who has not
// acted is told once, a minute before the phase closes.
func TestBrowserWarnsAMinuteBeforeThePhaseCloses(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tabs := e.browsers(t, 2)
	ann, bob := tabs[0], tabs[1]
	_, link := e.create(t, ann, "plurality", "sealed") // a 3-minute message phase
	enter(t, bob, link, "Bob")
	do(t, bob, "Bob writes", sendKeys(chromedp.CSS(`#say`), "Soup\r"), waitText(`#notes`, "stays sealed"))
	e.clock.Advance(2*time.Minute + 30*time.Second) // Bob acted before the last minute began
	do(t, ann, "Ann is warned", waitText(`#notes`, "One minute left in the message phase"),
		until(`document.querySelector('#countdown').classList.contains('soon')`, "for the countdown to turn red"))
	if n := eval[int](t, ann, `[...document.querySelectorAll('#notes li')].filter(l => l.textContent.includes('One minute left')).length`); n != 1 {
		t.Errorf("Ann was warned %d times, want once", n)
	}
	if eval[bool](t, bob, `document.querySelector('#notes').textContent.includes('One minute left')`) {
		t.Errorf("Bob, who acted, was warned")
	}
}

// notificationSpy stands in for the browser's notifications (granted) and
// makes the page believe it is in a background tab.
const notificationSpy = `window.__notes = [];
window.Notification = function (title, o) { window.__notes.push(title + ' | ' + o.body); };
window.Notification.permission = 'granted';
window.Notification.requestPermission = function () { return Promise.resolve('granted'); };
Object.defineProperty(document, 'hidden', { get: function () { return true; } });`

func TestBrowserNotifiesWhenItIsYourTurn(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tabs := e.browsers(t, 2)
	ann, bob := tabs[0], tabs[1]
	if _, err := chromedp.Call(bob, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: notificationSpy}); err != nil {
		t.Fatal(err)
	}
	_, link := e.create(t, ann, "plurality", "sealed")
	enter(t, bob, link, "Bob")
	do(t, bob, "Bob asks for notifications and writes", chromedp.Click(chromedp.CSS(`#notify`)),
		sendKeys(chromedp.CSS(`#say`), "Soup\r"), waitText(`#notes`, "stays sealed"))
	do(t, ann, "Ann writes: the proposal phase opens", sendKeys(chromedp.CSS(`#say`), "Bread\r"), waitText(`#phase`, "proposal phase"))
	do(t, bob, "Bob is notified", until(`window.__notes.some(n => n.includes('Your turn: propose'))`, "for a notification"))
	if n := eval[int](t, bob, `window.__notes.length`); n != 1 {
		t.Errorf("%d notifications, want 1: %v", n, eval[[]string](t, bob, `window.__notes`))
	}
}

func TestBrowserARoleNameIsRefusedWithTheReason(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tabs := e.browsers(t, 1+len(viewports))
	_, link := e.create(t, tabs[0], "plurality", "sealed")
	for i, v := range viewports {
		tab := tabs[1+i]
		do(t, tab, "name oneself the organiser at "+v.name, chromedp.EmulateViewport(v.w, v.h), chromedp.Navigate(link),
			chromedp.WaitVisible(chromedp.CSS(`.namegate #name`)),
			sendKeys(chromedp.CSS(`.namegate #name`), "Olivia (organiser)"),
			chromedp.Click(chromedp.CSS(`.namegate button[value=yes]`)),
			waitText(`#name-error`, "looks like a role"))
		if w := eval[int](t, tab, `document.documentElement.scrollWidth`); w > int(v.w) {
			t.Errorf("the refusal page is %d px wide at %s", w, v.name)
		}
		// The refusal is the room's own name gate, holding the name typed:
		// fixing it takes the seat, with no way back through the lobby.
		if got := eval[string](t, tab, `document.querySelector('.namegate input[name=next]').value + ' ' + document.querySelector('.namegate #name').value`); !strings.HasPrefix(got, "/r/") || !strings.HasSuffix(got, " Olivia (organiser)") {
			t.Errorf("after the refusal at %s: %q; want the room's name gate holding the name", v.name, got)
		}
		eval[bool](t, tab, `(() => { document.querySelector('.namegate #name').value = `+jsString("Olivia "+v.name)+`;
			document.querySelector('.namegate button[value=yes]').click(); return true })()`)
		do(t, tab, "fix the name at "+v.name,
			until(`document.body.dataset.named === 'yes'`, "for the room to reload"), waitText(`#notes`, "You joined"))
	}
}
