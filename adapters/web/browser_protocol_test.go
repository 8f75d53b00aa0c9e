package web_test

import (
	"context"
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
			chromedp.SendKeys(chromedp.CSS(`#say`), "me first\r"),
			waitText(`#notes`, "may act in the message phase of round "+round))
		do(t, tn.speaker, "the speaker of round "+round, chromedp.SendKeys(chromedp.CSS(`#say`), "my turn "+round+"\r"))
	}
	do(t, ann, "the private phase", waitText(`#phase`, "private phase"),
		press("Write private message"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
		chromedp.SendKeys(chromedp.CSS(`#f-text`), "secret of Ann"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes, #dialog-error`, "may act in the private phase of round 3"))
	do(t, bob, "Bob's private message",
		press("Write private message"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
		chromedp.SendKeys(chromedp.CSS(`#f-text`), "secret of Bob"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#phase`, "survey phase"))
	do(t, ann, "Ann's survey, off the scale and then on it",
		waitText(`#todo`, "Your turn: answer the survey."),
		press("Answer"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-v0`)),
		chromedp.SendKeys(chromedp.CSS(`#f-v0`), "7"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes, #dialog-error`, "off the scale"),
		press("Answer"),
		// The new form replaces the refused one (which may still be open,
		// holding the 7) when its reply arrives.
		until(`document.querySelector('#dialog[open] #f-v0')?.value === ''`, "for a fresh survey form"),
		chromedp.SetValue(chromedp.CSS(`#f-v0`), "2"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes`, "Your answer is recorded"))
	do(t, bob, "Bob's survey",
		press("Answer"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-v0`)),
		chromedp.SendKeys(chromedp.CSS(`#f-v0`), "-1"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
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
	for i, v := range values {
		do(t, tab, "fill in "+v, chromedp.SendKeys(chromedp.CSS(`#f-v`+string(rune('0'+i))), v))
	}
	do(t, tab, "send the answer", chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "Your answer is recorded"),
		until(`!document.querySelector('#dialog').open`, "for the dialog to close"))
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
	for r := 1; r <= 2; r++ {
		round := string(rune('0' + r))
		do(t, ann, "round "+round, waitText(`#phase`, "Round "+round+" of 3 · message"))
		say(t, ann, "Ann is great. Ben is weak.")
		answer(t, ann, "0.8", "-0.3")
	}
	do(t, ann, "the end", waitText(`#posts`, "The table has ended"))
	s, err := roundtable.Replay(e.events(t, room))
	if err != nil {
		t.Fatal(err)
	}
	if s.EndReason != roundtable.EndConvergence || len(s.Rounds) != 2 {
		t.Errorf("ended by %q after %d rounds; want convergence after 2", s.EndReason, len(s.Rounds))
	}
}
