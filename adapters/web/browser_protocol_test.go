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
		chromedp.WaitVisible(chromedp.CSS(`#posts .post`)),
		waitText(`#posts`, "Protocol: chatroom"))
	room := eval[string](t, ann, `location.pathname`)
	link := eval[string](t, ann, `document.querySelector('#joinlink').value`)
	do(t, bob, "Bob joins", chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`.namegate #name`)),
		chromedp.SendKeys(chromedp.CSS(`.namegate #name`), "Bob"),
		chromedp.Click(chromedp.CSS(`.namegate button`)),
		until(`document.body.dataset.named === 'yes'`, "for the room to reload"),
		chromedp.Click(chromedp.CSS(`button[data-command=join]`)),
		waitText(`#notes`, "You joined"))

	// Bob joined after round 1 drew Ann; then the turn alternates.
	turns := []struct{ speaker, other context.Context }{{ann, bob}, {bob, ann}, {ann, bob}}
	for r, tn := range turns {
		round := string(rune('1' + r))
		do(t, tn.other, "out of turn in round "+round,
			waitText(`#phase`, "Round "+round+" of 3"),
			chromedp.SendKeys(chromedp.CSS(`#say`), "me first\r"),
			waitText(`#notes`, "may act in the message phase of round "+round))
		do(t, tn.speaker, "the speaker of round "+round, chromedp.SendKeys(chromedp.CSS(`#say`), "my turn "+round+"\r"))
	}
	do(t, ann, "the private phase", waitText(`#phase`, "private phase"),
		chromedp.Click(lastControl("Write private message")),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
		chromedp.SendKeys(chromedp.CSS(`#f-text`), "secret of Ann"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes, #dialog-error`, "may act in the private phase of round 3"))
	do(t, bob, "Bob's private message",
		chromedp.Click(lastControl("Write private message")),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
		chromedp.SendKeys(chromedp.CSS(`#f-text`), "secret of Bob"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#phase`, "survey phase"))
	do(t, ann, "Ann's survey, off the scale and then on it",
		chromedp.Click(lastControl("Answer")),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-v0`)),
		chromedp.SendKeys(chromedp.CSS(`#f-v0`), "7"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes, #dialog-error`, "off the scale"),
		chromedp.Click(lastControl("Answer")),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-v0`)),
		chromedp.SetValue(chromedp.CSS(`#f-v0`), "2"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes`, "Your answer is recorded"))
	do(t, bob, "Bob's survey",
		chromedp.Click(lastControl("Answer")),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-v0`)),
		chromedp.SendKeys(chromedp.CSS(`#f-v0`), "-1"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#posts`, "The table has ended"))
	e.screenshot(t, bob, "room-chatroom.png")
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
