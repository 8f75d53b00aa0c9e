package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// TestBrowserClassGathersThenStarts plays a class as a teacher runs one:
// the organiser creates a table without taking a seat; two students, one
// on a laptop and one on a phone, join well after it was created; it
// waits, no clock running, showing who is in, and only the organiser may
// start it. Then both write, propose (the phone through the proposal
// dialog) and vote, and on the phone: the header stays compact, the vote's
// select fits the screen, a reload after the end opens no stale dialog,
// and the dashboard shows every column of the ballots.
func TestBrowserClassGathersThenStarts(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	tabs := e.browsers(t, 3)
	teacher, laptop, phone := tabs[0], tabs[1], tabs[2]
	do(t, phone, "a phone's screen", chromedp.EmulateViewport(390, 844))
	do(t, laptop, "a laptop's screen", chromedp.EmulateViewport(1280, 800))
	do(t, teacher, "the teacher creates a table to organise only",
		chromedp.EmulateViewport(1280, 800),
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Olivia"),
		sendKeys(chromedp.CSS(`#topic`), "Which trip do we take in spring?"),
		chromedp.SetValue(chromedp.CSS(`#rounds`), "1"),
		chromedp.Click(chromedp.CSS(`input[name=join][value=no]`)),
		chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#waiting`)),
		waitText(`#todo`, "Press Start when everyone is in"))
	room := eval[string](t, teacher, `location.pathname`)
	link := eval[string](t, teacher, `document.querySelector('#joinlink').value`)

	e.clock.Advance(45 * time.Second) // the link goes round the class
	enter(t, laptop, link, "Cat")
	enter(t, phone, link, "Bob")
	e.clock.Advance(3 * time.Minute) // longer than any phase: a waiting table has no clock
	for name, tab := range map[string]context.Context{"Cat": laptop, "Bob": phone} {
		do(t, tab, name+" waits", waitText(`#todo`, "Waiting for the organiser to start the table"),
			waitText(`#wait-people`, "Bob"), waitText(`#wait-people`, "Cat"))
		if eval[bool](t, tab, `document.querySelector('#start').checkVisibility()`) {
			t.Errorf("%s, a student, sees Start", name)
		}
	}
	if s := replayRoom(t, e, room); s.Status != roundtable.StatusCreated || len(s.Participants) != 2 {
		t.Fatalf("before Start the table is %s with %v; want it waiting with Bob and Cat", s.Status, s.Participants)
	}
	do(t, teacher, "the teacher sees the class and starts", waitText(`#wait-people`, "Bob"), waitText(`#wait-people`, "Cat"),
		chromedp.Click(chromedp.CSS(`#start`)), waitText(`#phase`, "Round 1 of 1 · message"))
	if px := eval[float64](t, phone, `document.querySelector('.roomhead').getBoundingClientRect().height`); px > 0.15*844 {
		t.Errorf("the phone's sticky header is %.0f px high, %.0f%% of the screen; want at most 15%%", px, 100*px/844)
	}
	e.screenshot(t, phone, "class-room-390x844.png")

	do(t, laptop, "Cat writes", waitText(`#phase`, "message"), sendKeys(chromedp.CSS(`#say`), "The lake, we can swim.\r"))
	do(t, phone, "Bob writes", sendKeys(chromedp.CSS(`#say`), "The castle: it rains in spring.\r"), waitText(`#phase`, "proposal phase"))
	long := "The castle of Gruyères with the cheese dairy on the way back, lunch in the courtyard and a guided tour of the museum for everyone"
	do(t, phone, "Bob proposes in the dialog", press("Propose"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] textarea`)),
		sendKeys(chromedp.CSS(`#dialog[open] textarea`), long),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes`, "Your proposal is recorded"))
	do(t, laptop, "Cat proposes", sendKeys(chromedp.CSS(`#proposal-text`), "The lake"),
		chromedp.Click(chromedp.CSS(`#propose-send`)), waitText(`#phase`, "vote phase"))
	do(t, phone, "the ballot on the phone", waitText(`#phase`, "vote phase"), until(`!!document.querySelector('#posts select')`, "for the ballot's select"))
	if wide := eval[string](t, phone, `[...document.querySelectorAll('#posts .controls select, #posts .controls button')]
		.filter(c => c.getBoundingClientRect().right > innerWidth || c.getBoundingClientRect().width > innerWidth)
		.map(c => c.tagName + ' ' + Math.round(c.getBoundingClientRect().width) + ' px').join(', ')`); wide != "" {
		t.Errorf("on a 390 px screen the vote's controls overflow: %s", wide)
	}
	if sw := eval[int](t, phone, `document.documentElement.scrollWidth`); sw > 390 {
		t.Errorf("the room is %d px wide on a 390 px screen", sw)
	}
	e.screenshot(t, phone, "class-vote-390x844.png")
	vote(t, phone, "Gruyères")
	vote(t, laptop, "The lake")
	do(t, phone, "the end", waitText(`#posts`, "The table has ended"))

	do(t, phone, "Bob reloads after the end", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#posts .post`)),
		waitText(`#posts`, "The table has ended"), waitText(`#phase`, "ended"))
	if eval[bool](t, phone, `new Promise(r => setTimeout(() => r(document.querySelector('#dialog').open), 500))`) {
		t.Errorf("a reload after the end opened the dialog %q", eval[string](t, phone, `document.querySelector('#dialog-title').textContent`))
	}
	do(t, phone, "Bob's dashboard", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"), waitText(`main`, "Ballots"))
	cut := eval[string](t, phone, `[...document.querySelectorAll('main th, main td')].filter(c => c.getBoundingClientRect().right > innerWidth + 1)
		.map(c => c.textContent.slice(0, 20)).join(' | ')`)
	if cut != "" {
		t.Errorf("on a 390 px screen the dashboard cuts off %s", cut)
	}
	e.screenshot(t, phone, "class-dashboard-390x844.png")
	s := replayRoom(t, e, room)
	if s.Status != roundtable.StatusEnded || len(s.Rounds) != 1 || s.Rounds[0].Tally == nil || len(s.Rounds[0].Tally.Ballots) != 2 {
		t.Errorf("the table ended %s after %d rounds; want one round with the students' two ballots", s.Status, len(s.Rounds))
	}
}

// brokenWords is a JavaScript expression: the words of the elements
// matching css that the page breaks across lines, joined by " | ".
func brokenWords(css string) string {
	return `[...document.querySelectorAll(` + jsString(css) + `)].flatMap(el => {
		const out = [], walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
		for (let n; (n = walk.nextNode());) {
			for (const m of n.data.matchAll(/\S+/g)) {
				const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
				if (new Set([...r.getClientRects()].map(q => Math.round(q.top))).size > 1) out.push(m[0]);
			}
		}
		return out }).join(' | ')`
}

// replayRoom is the table in a room, replayed from its stored log.
func replayRoom(t *testing.T, e *browserEnv, room string) *roundtable.State {
	t.Helper()
	s, err := roundtable.Replay(e.events(t, room))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBrowserChatroomClassTakesTurnsAmongThoseSeated: a chatroom whose
// organiser does not sit and seats no bot waits for its two students
// (one on a phone), then draws each round's speaker among them: each
// speaks in turn, the other is refused with the reason; the one who did
// not speak last writes the private message, and both answer the survey
// with the level buttons. The dashboard fits the phone.
func TestBrowserChatroomClassTakesTurnsAmongThoseSeated(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	c := e.gather(t, bottest.ChatroomPreset, "3")
	teacher, students, room := c.teacher, c.students, c.room
	c.start(t)
	spoke := map[string]int{}
	last := ""
	for r := 1; r <= 3; r++ {
		round := fmt.Sprint(r)
		speaker, other := e.speaker(t, students, round)
		do(t, students[other], other+" out of turn in round "+round,
			waitText(`#todo`, "Not your turn in this phase: waiting for "+speaker),
			sendKeys(chromedp.CSS(`#say`), "me first\r"),
			waitText(`#notes`, "may act in the message phase of round "+round))
		do(t, students[speaker], speaker+" speaks in round "+round, sendKeys(chromedp.CSS(`#say`), speaker+" in round "+round+"\r"),
			waitText(`#notes`, "Your message is recorded"))
		spoke[speaker]++
		last = speaker
		if r == 1 {
			c.shoot(t, e, "chatroom-room")
		}
	}
	if spoke["Bob"] == 0 || spoke["Cat"] == 0 {
		t.Errorf("the speakers were %v; want both students drawn", spoke)
	}
	writer := map[string]string{"Bob": "Cat", "Cat": "Bob"}[last]
	do(t, students[writer], writer+"'s private message", waitText(`#phase`, "private phase"),
		press("Write private message"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] #f-text`)),
		sendKeys(chromedp.CSS(`#f-text`), "secret of "+writer),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#phase`, "survey phase"))
	// The refusal shown under the message box spoke of its round: a new
	// phase clears it.
	for name, tab := range students {
		do(t, tab, name+"'s message box error clears", waitText(`#phase`, "survey phase"),
			until(`document.querySelector('#say-error').textContent === ''`, "the message box's error to clear"))
	}
	for _, name := range []string{"Bob", "Cat"} {
		do(t, students[name], name+"'s survey", press("Answer"), chromedp.WaitVisible(chromedp.CSS(`#dialog[open] fieldset#f-v0`)))
		fill(t, students[name], "1")
		do(t, students[name], name+" answers", chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "Your answer is recorded"))
	}
	do(t, teacher, "the end", waitText(`#posts`, "has ended"))
	e.dashboards(t, c, "chatroom", waitText(`main`, "Download"), waitText(`#survey-answers`, "Your survey answers"))
	s := replayRoom(t, e, room)
	var public, surveys int
	for _, r := range s.Rounds {
		surveys += len(r.Surveys)
		for _, m := range r.Messages {
			if !m.Private {
				public++
			}
		}
	}
	if len(s.Participants) != 2 || public != 3 || surveys != 2 {
		t.Errorf("%d seated, %d public messages, %d survey answers; want the 2 students, 3 messages, 2 answers", len(s.Participants), public, surveys)
	}
}

// speaker waits for round's message phase and returns who of the two
// students may speak in it, and the other.
func (e *browserEnv) speaker(t *testing.T, students map[string]context.Context, round string) (string, string) {
	t.Helper()
	for _, tab := range students {
		do(t, tab, "round "+round, waitText(`#phase`, "Round "+round+" of 3 · message"))
	}
	for name, tab := range students {
		do(t, tab, "the todo of round "+round, until(`/Your turn|Not your turn/.test(document.querySelector('#todo').textContent)`, "for "+name+"'s todo"))
	}
	var got []string
	for name, tab := range students {
		if eval[bool](t, tab, `document.querySelector('#todo').textContent.includes('Your turn')`) {
			got = append(got, name)
		}
	}
	if len(got) != 1 {
		t.Fatalf("round %s: the speakers are %v; want one of the two students", round, got)
	}
	return got[0], map[string]string{"Bob": "Cat", "Cat": "Bob"}[got[0]]
}

// TestBrowserDyadsClassPairsTheStudents: dyads whose organiser does not
// sit and seats no bot wait for two students (one on a phone) who join
// well after creation; once started, each round pairs them: the writer
// writes to the other, who answers the survey with the slider.
func TestBrowserDyadsClassPairsTheStudents(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	c := e.gather(t, bottest.DyadsPreset, "2")
	teacher, students, room := c.teacher, c.students, c.room
	c.start(t)
	for r := 1; r <= 2; r++ {
		round := fmt.Sprint(r)
		do(t, teacher, "round "+round, waitText(`#phase`, "Round "+round+" of 2"))
		s := replayRoom(t, e, room)
		pair := s.Rounds[r-1].Pair
		if len(pair) != 2 {
			t.Fatalf("round %d drew %v", r, pair)
		}
		writer, _ := s.Participant(pair[0])
		reader, _ := s.Participant(pair[1])
		do(t, students[writer.Name], writer.Name+" writes in round "+round, waitText(`#posts`, writer.Name+" writes to "+reader.Name))
		say(t, students[writer.Name], "It is false, "+reader.Name+".")
		do(t, students[writer.Name], writer.Name+" wrote", waitText(`#notes`, "Your message is recorded"))
		answer(t, students[reader.Name], "0.5")
		if r == 1 {
			c.shoot(t, e, "dyads-room")
		}
	}
	do(t, teacher, "the end", waitText(`#posts`, "has ended"))
	e.dashboards(t, c, "dyads", waitText(`#survey-answers`, "Your survey answers"))
	s := replayRoom(t, e, room)
	for _, r := range s.Rounds {
		if len(r.Messages) != 1 || len(r.Surveys) != 1 || r.Surveys[0].By != r.Pair[1] || r.Surveys[0].Values[0] != 0.5 {
			t.Errorf("round %d: pair %v, messages %+v, surveys %+v", r.Round, r.Pair, r.Messages, r.Surveys)
		}
	}
	if len(s.Participants) != 2 {
		t.Errorf("seated %v; want the two students", s.Participants)
	}
}

// class is a teacher's table and two students at it, Cat on a laptop and
// Bob on a phone.
type class struct {
	teacher  context.Context
	students map[string]context.Context
	room     string
	rounds   string
}

// gather has the teacher organise a table of preset over rounds with no
// bot (and fields set, see organise), and the students join it 45 s
// later, while it waits.
func (e *browserEnv) gather(t *testing.T, preset, rounds string, fields ...string) class {
	return e.gatherWith(t, preset, rounds, nil, fields...)
}

// gatherWith is gather with the bots named by agents seated.
func (e *browserEnv) gatherWith(t *testing.T, preset, rounds string, agents []string, fields ...string) class {
	tabs := e.browsers(t, 3)
	c := class{teacher: tabs[0], students: map[string]context.Context{"Cat": tabs[1], "Bob": tabs[2]}, rounds: rounds}
	do(t, c.students["Bob"], "a phone's screen", chromedp.EmulateViewport(390, 844))
	do(t, c.students["Cat"], "a laptop's screen", chromedp.EmulateViewport(1280, 800))
	room, link := e.organise(t, c.teacher, preset, rounds, agents, fields...)
	c.room = room
	e.clock.Advance(45 * time.Second) // the link goes round the class
	for _, name := range []string{"Cat", "Bob"} {
		enter(t, c.students[name], link, name)
	}
	return c
}

// start has the teacher start the class's table once both students are in.
func (c class) start(t *testing.T) {
	do(t, c.teacher, "the teacher starts", waitText(`#wait-people`, "Bob"), waitText(`#wait-people`, "Cat"),
		chromedp.Click(chromedp.CSS(`#start`)), waitText(`#phase`, "Round 1 of "+c.rounds))
}

// organise creates a table of preset over rounds as an organiser who does
// not sit, with the bots named by agents (and fields, name and value
// pairs, set), and returns its waiting room's path and join link.
func (e *browserEnv) organise(t *testing.T, tab context.Context, preset, rounds string, agents []string, fields ...string) (string, string) {
	do(t, tab, "the teacher creates a "+preset+" table to organise only",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Olivia"),
		chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('#preset'); s.value = `+jsString(preset)+`;
			s.dispatchEvent(new Event('change')); const seat = `+jsStrings(agents)+`;
			document.querySelectorAll('input[name=agents]').forEach(b => { b.checked = seat.includes(b.value) }) })()`),
		chromedp.SetValue(chromedp.CSS(`#rounds`), rounds),
		chromedp.Click(chromedp.CSS(`input[name=join][value=no]`)))
	for i := 0; i+1 < len(fields); i += 2 { // more of the form's fields, by name
		do(t, tab, "fill in "+fields[i], chromedp.SetValue(chromedp.CSS(`[name=`+fields[i]+`]`), fields[i+1]))
	}
	do(t, tab, "create the table", chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`#waiting`)))
	return eval[string](t, tab, `location.pathname`), eval[string](t, tab, `document.querySelector('#joinlink').value`)
}

// TestBrowserPanelClassJudgesTheFormsItems: a panel whose items and
// documents come from the create form shows them in the waiting room to
// the students (one on a phone) before anyone speaks; once started, they
// speak in turn (the paper's ordered speaking) and rate each item with a
// slider; steady views end it with the
// rankings, which the phone's dashboard shows inside its width.
func TestBrowserPanelClassJudgesTheFormsItems(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnv(t)
	c := e.gather(t, bottest.PanelPreset, "3",
		"item1_title", "Dana Ionescu", "item1_document", "Dana led the **robotics** club for two years.",
		"item2_title", "Eli", "item2_document", "Eli wrote the school paper's science page.")
	teacher, students, room := c.teacher, c.students, c.room
	for name, tab := range students {
		do(t, tab, name+" reads the items while the table waits", waitText(`#item-list`, "Dana led the robotics club"),
			waitText(`#item-list`, "Eli wrote the school paper"))
	}
	if got := eval[string](t, students["Bob"], `document.querySelector('#item-list strong')?.textContent`); got != "robotics" {
		t.Errorf("the document's bold word reads %q in the room", got)
	}
	c.start(t)
	c.shoot(t, e, "panel-room")
	for r := 1; r <= 2; r++ {
		round := fmt.Sprint(r)
		for _, name := range []string{"Cat", "Bob"} { // in turn, in the order they took their seats
			do(t, students[name], name+"'s turn in round "+round, waitText(`#phase`, "Round "+round+" of 3 · message"), waitText(`#todo`, "Your turn"))
			say(t, students[name], "Dana is strong; Eli less so.")
			do(t, students[name], name+" spoke", waitText(`#notes`, "Your message is recorded"))
		}
		for _, name := range []string{"Bob", "Cat"} {
			answer(t, students[name], "0.8", "-0.3")
		}
	}
	do(t, teacher, "the rankings", waitText(`#posts`, "The panel has ended"), waitText(`#posts`, "Borda count of everyone's final views: 1. Dana"))
	e.dashboards(t, c, "panel", waitText(`#panel-results`, "Rankings of 2 items by 2 judges"), waitText(`#panel-results`, "Your survey answers"),
		waitText(`#sentiment-chart .legend`, "Dana Ionescu"))
	if n := eval[int](t, students["Bob"], `document.querySelectorAll('#sentiment-chart polyline').length`); n != 2 {
		t.Errorf("the sentiment chart draws %d lines; want one per item", n)
	}
	for _, tab := range students {
		if broken := eval[string](t, tab, brokenWords(`#panel-results td, #panel-results th`)); broken != "" {
			t.Errorf("the panel's tables break words: %s", broken)
		}
	}
	for _, v := range viewports {
		do(t, teacher, "the teacher's dashboard at "+v.name, chromedp.EmulateViewport(v.w, v.h),
			chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"), waitText(`#panel-results`, "Every survey answer"))
		if broken := eval[string](t, teacher, brokenWords(`#panel-results td, #panel-results th`)); broken != "" {
			t.Errorf("at %s the organiser's panel tables break words: %s", v.name, broken)
		}
		if sw := eval[int](t, teacher, `document.documentElement.scrollWidth`); sw > int(v.w) {
			t.Errorf("the organiser's panel dashboard is %d px wide at %s", sw, v.name)
		}
		e.screenshot(t, teacher, "panel-organiser-dashboard-"+v.name+".png")
	}
	if n := eval[int](t, students["Bob"], `document.querySelectorAll('#panel-answers tbody tr').length`); n != 2 {
		t.Errorf("Bob's dashboard lists %d survey answers, want his own 2", n)
	}
	if s := replayRoom(t, e, room); s.EndReason != roundtable.EndConvergence || len(s.Participants) != 2 {
		t.Errorf("ended by %q with %v seated; want convergence with the two students", s.EndReason, s.Participants)
	}
}
