package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// Two people in a chatroom, in the browser: turns alternate (one speaker,
// never the last), a message out of turn is refused with the reason, the
// last speaker may not write the final private message, and the survey
// refuses a value off the scale. Nothing private reaches the room.
func TestBrowserChatroomTurns(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tabs := e.browsers(t, 2)
	ann, bob := tabs[0], tabs[1]
	do(t, ann, "Ann starts the chatroom preset without agents",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
		chromedp.SetValue(chromedp.CSS(`#preset`), bottest.ChatroomPreset),
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		pressStart(),
		chromedp.WaitVisible(chromedp.CSS(`#posts .post`)),
		waitText(`#posts`, "Protocol: chatroom"))
	room := eval[string](t, ann, `location.pathname`)
	link := eval[string](t, ann, `document.querySelector('#joinlink').value`)
	enter(t, bob, link, "Bob")

	// Bob joined after round 1 drew Ann; then the turn alternates.
	turns := []struct{ speaker, other context.Context }{{ann, bob}, {bob, ann}, {ann, bob}}
	for r, tn := range turns {
		round := string(rune('1' + r))
		do(t, tn.other, "out of turn in round "+round,
			waitText(`#phase`, "Round "+round+" of 3"),
			waitText(`#todo`, "Not your turn in this phase: waiting for "),
			sendKeys(chromedp.CSS(`#say`), "me first\r"),
			waitText(`#notes`, "may act in the message phase of round "+round))
		do(t, tn.speaker, "the speaker of round "+round, sendKeys(chromedp.CSS(`#say`), "my turn "+round+"\r"))
	}
	do(t, ann, "the private phase", waitText(`#phase`, "private phase"),
		press("Write private message"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
		sendKeys(chromedp.CSS(`#f-text`), "secret of Ann"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes, #dialog-error`, "may act in the private phase of round 3"))
	do(t, bob, "Bob's private message",
		press("Write private message"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
		sendKeys(chromedp.CSS(`#f-text`), "secret of Bob"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#phase`, "survey phase"))
	do(t, ann, "Ann's survey: five level buttons, none chosen yet",
		waitText(`#todo`, "Your turn: answer the survey."),
		press("Answer"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] fieldset#f-v0`)))
	if got := eval[int](t, ann, `document.querySelectorAll('#f-v0 input[type=radio]').length`); got != 5 {
		t.Errorf("the stance survey offers %d level buttons, want 5", got)
	}
	do(t, ann, "Ann sends without choosing, then chooses",
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#dialog-error`, "choose one answer"))
	fill(t, ann, "2")
	do(t, ann, "Ann's answer", chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "Your answer is recorded"))
	do(t, bob, "Bob's survey",
		press("Answer"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-v0`)))
	fill(t, bob, "-1")
	do(t, bob, "Bob's answer", chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#posts`, "The table has ended"))
	e.screenshot(t, bob, "room-chatroom.png")
	if eval[bool](t, bob, `document.querySelector('#decision-line').checkVisibility() || document.querySelector('#history-h').checkVisibility() || document.querySelector('#rule').textContent.includes('Rule:')`) {
		t.Error("a chatroom, which decides nothing, shows a voting rule, a decision or decided rounds in its side panel")
	}
	if eval[bool](t, bob, `document.querySelector('#propcard').checkVisibility()`) {
		t.Error("a chatroom, with no proposals and no vote, shows the Propose card")
	}
	if eval[bool](t, ann, `document.querySelector('#posts').textContent.includes('secret')`) {
		t.Error("a private message reached the room")
	}
	evs := e.events(t, room)
	s, err := roundtable.Replay(evs)
	if err != nil {
		t.Fatal(err)
	}
	var surveys, private, public int
	for _, r := range s.Rounds {
		surveys += len(r.Surveys)
		for _, m := range r.Messages {
			if m.Private {
				private++
				if !strings.Contains(m.Text, "Bob") {
					t.Errorf("private message %q recorded", m.Text)
				}
			} else {
				public++
			}
		}
	}
	if surveys != 2 || private != 1 || public != 3 {
		t.Errorf("%d survey answers, %d private and %d public messages; want 2, 1, 3", surveys, private, public)
	}
}

// startPreset starts a preset table as Ann with the preset's agents and
// returns the room's path.
func (e *browserEnv) startPreset(t *testing.T, tab context.Context, preset, rounds, intro string) string {
	do(t, tab, "Ann starts the "+preset+" preset",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
		chromedp.SetValue(chromedp.CSS(`#preset`), preset),
		chromedp.SetValue(chromedp.CSS(`#rounds`), rounds),
		chromedp.Click(chromedp.CSS(`input[name=agents][value=Scribe]`)),
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		pressStart(),
		chromedp.WaitVisible(chromedp.CSS(`#posts .post`)),
		waitText(`#posts`, intro))
	return eval[string](t, tab, `location.pathname`)
}

// answer fills the survey dialog with one value per field.
func answer(t *testing.T, tab context.Context, values ...string) {
	do(t, tab, "open the survey", waitText(`#phase`, "survey phase"),
		until(`[...document.querySelectorAll('#posts .controls button')].some(b => b.textContent === 'Answer')`, "for the Answer button"))
	eval[bool](t, tab, `(() => { [...document.querySelectorAll('#posts .controls button')].filter(b => b.textContent === 'Answer').at(-1).click(); return true })()`)
	do(t, tab, "open the survey dialog", chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-v0`)))
	fill(t, tab, values...)
	do(t, tab, "send the answer", chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "Your answer is recorded"),
		until(`!document.querySelector('#dialog').open`, "for the dialog to close"))
}

// fill answers the open survey dialog's fields in order, as a person
// does: a level's button is clicked, a slider moved, a text field typed.
func fill(t *testing.T, tab context.Context, values ...string) {
	t.Helper()
	for i, v := range values {
		eval[bool](t, tab, `((i, v) => { const f = document.querySelector('#dialog[open] #f-v' + i);
			if (!f) throw new Error('no field v' + i);
			if (f.tagName === 'FIELDSET') {
				const b = [...f.querySelectorAll('input[type=radio]')].find(r => r.value === v);
				if (!b) throw new Error('no level ' + v + ' in ' + [...f.querySelectorAll('input')].map(r => r.value));
				b.click(); return true;
			}
			f.value = v;
			f.dispatchEvent(new Event('input', { bubbles: true }));
			if (f.type === 'range' && f.value !== String(Number(v))) throw new Error('the slider holds ' + f.value + ', not ' + v);
			return true })(`+fmt.Sprint(i)+`, `+jsString(v)+`)`)
	}
}

// say sends a message from the room's composer.
func say(t *testing.T, tab context.Context, text string) {
	eval[bool](t, tab, `(() => { document.querySelector('#say').value = `+jsString(text)+`; document.querySelector('#composer').requestSubmit(); return true })()`)
}

// A person and an agent in dyads, in the browser: each round the drawn
// writer writes to the other, who then reports privately.
func TestBrowserDyadsPairs(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	ann := e.browsers(t, 1)[0]
	room := e.startPreset(t, ann, bottest.DyadsPreset, "2", "Protocol: dyads")
	for r := 1; r <= 2; r++ {
		round := string(rune('0' + r))
		do(t, ann, "round "+round, waitText(`#phase`, "Round "+round+" of 2"))
		s, err := roundtable.Replay(e.events(t, room))
		if err != nil {
			t.Fatal(err)
		}
		pair := s.Rounds[r-1].Pair
		if len(pair) != 2 {
			t.Fatalf("round %d drew %v", r, pair)
		}
		if p, _ := s.Participant(pair[0]); p.Name == "Ann" {
			do(t, ann, "Ann's turn to write", waitText(`#posts`, "Ann writes to Scribe"))
			say(t, ann, "It is false.")
			do(t, ann, "Ann wrote", waitText(`#notes`, "Your message is recorded"))
			continue
		}
		answer(t, ann, "0.5")
	}
	do(t, ann, "the end", waitText(`#posts`, "The table has ended"))
	s, err := roundtable.Replay(e.events(t, room))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.Rounds {
		if len(r.Messages) != 1 || len(r.Surveys) != 1 || r.Messages[0].To[0] != r.Pair[1] || r.Surveys[0].By != r.Pair[1] {
			t.Errorf("round %d: pair %v, messages %+v, surveys %+v", r.Round, r.Pair, r.Messages, r.Surveys)
		}
	}
}

// A person and an agent on a panel, in the browser: both speak, then rate
// both items privately; steady ratings end the panel by convergence.
func TestBrowserPanelConverges(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	ann := e.browsers(t, 1)[0]
	room := e.startPreset(t, ann, bottest.PanelPreset, "3", "Protocol: panel")
	if got := eval[string](t, ann, `document.querySelector('#items').checkVisibility() ? [...document.querySelectorAll('#item-list h3')].map(h => h.textContent).join('|') : 'hidden'`); got != "Ann|Ben" {
		t.Errorf("the room shows the items to judge as %q, want Ann|Ben", got)
	}
	for r := 1; r <= 2; r++ {
		round := string(rune('0' + r))
		do(t, ann, "round "+round, waitText(`#phase`, "Round "+round+" of 3 · message"))
		say(t, ann, "Ann is great. Ben is weak.")
		answer(t, ann, "0.8", "-0.3")
	}
	// The panel ends by posting its rankings.
	do(t, ann, "the end", waitText(`#posts`, "The panel has ended because opinions stopped moving"),
		waitText(`#posts`, "Borda count of everyone's final views: 1. Ann"), waitText(`#posts`, "Tiers"), waitText(`#posts`, "Gut feeling"))
	for _, vp := range viewports {
		do(t, ann, "the dashboard at "+vp.name, chromedp.EmulateViewport(vp.w, vp.h),
			chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"), waitText(`#panel-results`, "Rankings of 2 items by 2 judges"))
		if got := eval[string](t, ann, `[...document.querySelectorAll('#panel-results tbody tr')].slice(0, 2).map(r => r.cells[1].textContent).join('|')`); got != "Ann|Ben" {
			t.Errorf("the dashboard ranks %q, want Ann|Ben", got)
		}
		if n := eval[int](t, ann, `document.querySelectorAll('#panel-answers tbody tr').length`); n != 4 {
			t.Errorf("the organiser's dashboard lists %d survey answers, want 4 (two judges, two rounds)", n)
		}
		if n := eval[int](t, ann, `document.querySelectorAll('#panel-means tbody tr').length`); n != 2 {
			t.Errorf("the dashboard gives the mean sentiment after %d rounds, want 2", n)
		}
		if wide := eval[string](t, ann, `[...document.querySelectorAll('#panel-results td, #panel-results th')].filter(c => c.getBoundingClientRect().right > innerWidth).map(c => c.textContent).join('|')`); wide != "" {
			t.Errorf("at %s the panel's cells %q are cut off", vp.name, wide)
		}
		e.screenshot(t, ann, "panel-dashboard-"+vp.name+".png")
	}
	s, err := roundtable.Replay(e.events(t, room))
	if err != nil {
		t.Fatal(err)
	}
	if s.EndReason != roundtable.EndConvergence || len(s.Rounds) != 2 {
		t.Errorf("ended by %q after %d rounds; want convergence after 2", s.EndReason, len(s.Rounds))
	}
}
