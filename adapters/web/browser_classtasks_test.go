package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	"github.com/roundtable-ai/roundtable/roundtable/protocol"
	"github.com/roundtable-ai/roundtable/roundtable/protocol/questionnaire"
	"github.com/roundtable-ai/roundtable/roundtable/task"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	rtvote "github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// The class's presets beside the protocols' (bottest): the exchange
// economy, with one trader bot, and the one-shot questionnaire.
const (
	classExchange      = "class-exchange"
	classQuestionnaire = "questionnaire"
)

// newClassTasksEnv serves a class's tables of the RoundTable text task
// (the defaults, the Facilitator offered, voting only if asked), of the
// exchange economy (a trader bot beside the people, every seat a utility)
// and of the questionnaire, with the live tasks and the real Facilitator
// and trader agents.
func newClassTasksEnv(t *testing.T) *browserEnv {
	durations := roundtable.Durations{Message: 2 * time.Minute, Proposal: 2 * time.Minute, Vote: 2 * time.Minute}
	text := roundtable.Config{Rule: rtvote.Plurality, Rounds: 1, Mode: roundtable.Sealed, Durations: durations}
	econ := text
	econ.Title, econ.Rule = "Economy", rtvote.Majority
	econ.Task = roundtable.TaskSpec{Kind: "exchange", Topic: "Share the goods", Params: map[string]string{"preset": "asymmetric"}}
	quiz := text
	quiz.Title, quiz.Task = "Cars", roundtable.TaskSpec{Kind: "text", Topic: "Cities should ban cars from their centres."}
	quiz.Protocol = questionnaire.Preset(protocol.Settings{Question: "Cities should ban cars from their centres."})
	cfg := bot.Config{Defaults: text, Policy: bot.Policy{Manager: true},
		Agents: map[string]roundtable.Participant{
			"Facilitator": {ID: "agent:facilitator", Name: "Facilitator", Kind: roundtable.Bot, Agent: facilitator.Kind},
			"Trader 1":    {ID: "agent:trader-1", Name: "Trader 1", Kind: roundtable.Bot, Agent: "utility"},
		},
		Presets: map[string]bot.Preset{
			classExchange:      {Name: classExchange, Config: econ, Agents: []string{"Trader 1"}},
			classQuestionnaire: {Name: classQuestionnaire, Config: quiz},
		}}
	wcfg := web.Config{Agents: []string{"Facilitator", "Trader 1"}, VotesIfAsked: []string{"Facilitator"},
		Presets: []string{classExchange, classQuestionnaire}, Defaults: web.TableSettings{Config: text.WithDefaults()},
		PresetTables: map[string]web.TableSettings{classExchange: {Config: econ.WithDefaults(), Agents: []string{"Trader 1"}},
			classQuestionnaire: {Config: quiz.WithDefaults()}}}
	return newBrowserEnvWith(t, wcfg, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		return bot.New(cfg, bot.Deps{Store: db, Clock: clock, Task: task.Live,
			Agent: func(pt roundtable.Participant, tk roundtable.Task) (roundtable.Agent, error) {
				if x, ok := tk.(*exchange.Task); ok && pt.Agent == "utility" {
					return &exchange.UtilityAgent{Task: x}, nil
				}
				if pt.Agent == facilitator.Kind {
					return facilitator.Agent{}, nil
				}
				return nil, fmt.Errorf("no agent %q for a %s task", pt.Agent, tk.Kind())
			}}, p)
	})
}

// TestBrowserRoundTableClassDecidesWithTheFacilitator: the RoundTable
// text task as a class plays it: the teacher seats the Facilitator
// (speaks; its vote left unticked) and does not sit; two students join
// well after creation, one on a phone; the teacher starts; both write,
// propose and vote; the decision is on the dashboard, with the students'
// two ballots and none of the Facilitator's, inside the phone's width.
func TestBrowserRoundTableClassDecidesWithTheFacilitator(t *testing.T) {
	requireBrowser(t)
	e := newClassTasksEnv(t)
	c := e.gatherWith(t, "", "1", []string{"Facilitator"}, "topic", "Which trip do we take in spring?")
	for name, tab := range c.students {
		do(t, tab, name+" sees what the Facilitator does", waitText(`#wait-people`, "Facilitator (bot): speaks"))
		if got := eval[string](t, tab, `document.querySelector('#wait-people').textContent`); strings.Contains(got, "votes") {
			t.Errorf("%s reads that the Facilitator votes: %q", name, got)
		}
	}
	do(t, c.students["Bob"], "Bob is told the table waits", waitText(`#notes`, "has not started yet"))
	c.start(t)
	cat, bob := c.students["Cat"], c.students["Bob"]
	for name, tab := range map[string]context.Context{"Bob": bob, "the teacher": c.teacher} {
		do(t, tab, name+" is told it has started", waitText(`#notes`, "The table has started"))
		if got := eval[string](t, tab, `document.querySelector('#notes').textContent`); strings.Contains(got, "not started") || strings.Contains(got, "begin") {
			t.Errorf("once started, %s's notes still say %q", name, got)
		}
	}
	do(t, cat, "Cat reloads", chromedp.Reload(), waitText(`#phase`, "Round 1 of 1"), chromedp.WaitVisible(chromedp.CSS(`#posts .post`)))
	if got := eval[string](t, cat, `new Promise(r => setTimeout(() => r(document.querySelector('#notes').textContent), 300))`); strings.Contains(got, "not started") {
		t.Errorf("reloaded after the start, Cat's notes say %q", got)
	}
	say(t, cat, "The lake, we can swim.")
	say(t, bob, "The castle: it rains in spring.")
	for name, tab := range c.students {
		do(t, tab, name+" in the proposal phase", waitText(`#phase`, "proposal phase"))
	}
	do(t, bob, "Bob proposes in the dialog", press("Propose"),
		chromedp.WaitVisible(chromedp.CSS(`#dialog[open] textarea`)),
		sendKeys(chromedp.CSS(`#dialog[open] textarea`), "The castle of Gruyères"),
		chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)),
		waitText(`#notes`, "Your proposal is recorded"))
	do(t, cat, "Cat proposes", sendKeys(chromedp.CSS(`#proposal-text`), "The lake"),
		chromedp.Click(chromedp.CSS(`#propose-send`)), waitText(`#notes`, "Your proposal is recorded"))
	for name, tab := range c.students {
		do(t, tab, name+"'s ballot", waitText(`#phase`, "vote phase"), until(`!!document.querySelector('#posts select')`, "for the ballot's select"))
	}
	c.shoot(t, e, "roundtable-room")
	if got := eval[string](t, bob, `[...document.querySelectorAll('#people li')].find(li => li.textContent.startsWith('Facilitator'))?.textContent`); strings.Contains(got, "waiting") {
		t.Errorf("in the vote phase the room lists the Facilitator, who does not vote, as %q", got)
	}
	vote(t, bob, "The lake")
	vote(t, cat, "The lake")
	do(t, c.teacher, "the end", waitText(`#posts`, "The table has ended"))
	e.dashboards(t, c, "roundtable", waitText(`main`, "Decision: The lake"), waitText(`main`, "Ballots"))
	if n := eval[int](t, bob, `document.querySelectorAll('main table code').length`); n != 2 {
		t.Errorf("the dashboard lists %d ballots; want the students' 2 (the Facilitator was not asked to vote)", n)
	}
	s := replayRoom(t, e, c.room)
	if len(s.Rounds) != 1 || s.Rounds[0].Tally == nil || len(s.Rounds[0].Tally.Ballots) != 2 || s.Output == nil {
		t.Errorf("the table ended %s with rounds %+v; want one decided round of 2 ballots", s.Status, s.Rounds)
	}
}

// TestBrowserExchangeClassGivesEverySeatAUtility: the exchange economy
// with a trader bot beside two students who join late (one on a phone):
// once started, the economy has a good and a utility per seat, and each
// student is told theirs privately; both write, propose an allocation
// and vote; the decision and its welfare chart are on the dashboard.
func TestBrowserExchangeClassGivesEverySeatAUtility(t *testing.T) {
	requireBrowser(t)
	e := newClassTasksEnv(t)
	c := e.gatherWith(t, classExchange, "1", []string{"Trader 1"})
	for name, tab := range c.students {
		do(t, tab, name+" sees the trader", waitText(`#wait-people`, "Trader 1 (bot)"))
	}
	c.start(t)
	for name, tab := range c.students {
		do(t, tab, name+" is told their utility", waitText(`#brief`, "Your utility is the product"))
		say(t, tab, name+" values the first good most.")
		do(t, tab, name+" wrote", waitText(`#notes`, "Your message is recorded"))
	}
	if got := eval[string](t, c.students["Bob"], `document.querySelector('#brief').textContent`); !strings.Contains(got, "3 agents") && !strings.Contains(got, "agent ") {
		t.Errorf("Bob's brief reads %q", got)
	}
	do(t, c.students["Cat"], "the trader speaks", waitText(`#posts .post.agent`, "Trader 1 here"))
	if got := eval[string](t, c.students["Cat"], `[...document.querySelectorAll('#posts .post.agent')].map(p => p.textContent).join(' | ')`); strings.Contains(got, "Agent ") {
		t.Errorf("the trader speaks under another name than its own: %q", got)
	}
	allocations := map[string]string{"Cat": "34 33 33; 33 34 33; 33 33 34", "Bob": "50 25 25; 25 50 25; 25 25 50"}
	for _, name := range []string{"Cat", "Bob"} {
		tab := c.students[name]
		do(t, tab, name+" proposes an allocation", waitText(`#phase`, "proposal phase"),
			sendKeys(chromedp.CSS(`#proposal-text`), allocations[name]),
			chromedp.Click(chromedp.CSS(`#propose-send`)), waitText(`#notes`, "Your proposal is recorded"))
	}
	for name, tab := range c.students {
		do(t, tab, name+"'s ballot", waitText(`#phase`, "vote phase"), until(`!!document.querySelector('#posts select')`, "for the ballot's select"))
	}
	c.shoot(t, e, "exchange-room")
	for _, tab := range c.students {
		vote(t, tab, "agent 1: 34, 33, 33")
	}
	do(t, c.teacher, "the end", waitText(`#posts`, "The table has ended"))
	e.dashboards(t, c, "exchange", waitText(`main`, "Decision: agent 1: 34, 33, 33"), waitText(`main`, "Welfare of the decision"))
	s := replayRoom(t, e, c.room)
	if s.Config.Task.Params[roundtable.ParamSeats] != "3" || len(s.Participants) != 3 {
		t.Errorf("the economy has %q seats for %d participants; want 3, the trader's and the students'", s.Config.Task.Params[roundtable.ParamSeats], len(s.Participants))
	}
	if s.Output == nil {
		t.Error("the economy decided nothing")
	}
}

// TestBrowserQuestionnaireClassAnswersOnce: the one-shot questionnaire
// of two students who join late (one on a phone): once started, each
// answers the stance with the level buttons, and the answers are on the
// organiser's dashboard.
func TestBrowserQuestionnaireClassAnswersOnce(t *testing.T) {
	requireBrowser(t)
	e := newClassTasksEnv(t)
	c := e.gatherWith(t, classQuestionnaire, "1", nil)
	c.start(t)
	for name, tab := range c.students {
		do(t, tab, name+" is asked", waitText(`#todo`, "Your turn: answer the survey"))
	}
	c.shoot(t, e, "questionnaire-room")
	// Nobody writes at a questionnaire: neither the table card nor the
	// intro names a reveal mode for messages.
	card := eval[string](t, c.students["Bob"], `document.querySelector('#rule').textContent`)
	posts := eval[string](t, c.students["Bob"], `document.querySelector('#posts').textContent`)
	if strings.Contains(card, "Messages:") || strings.Contains(posts, "Mode:") || !strings.Contains(posts, "Nobody writes, proposes or votes") {
		t.Errorf("a questionnaire speaks of messages: card %q\nposts %.600q", card, posts)
	}
	for name, level := range map[string]string{"Cat": "2", "Bob": "-1"} {
		do(t, c.students[name], name+"'s survey", press("Answer"), chromedp.WaitVisible(chromedp.CSS(`#dialog[open] fieldset#f-v0`)))
		fill(t, c.students[name], level)
		do(t, c.students[name], name+" answers", chromedp.Click(chromedp.CSS(`#dialog-form button[type=submit]`)), waitText(`#notes`, "Your answer is recorded"))
	}
	do(t, c.teacher, "the end", waitText(`#posts`, "has ended"))
	e.dashboards(t, c, "questionnaire", waitText(`#survey-answers`, "Your survey answers"))
	if got := eval[string](t, c.students["Bob"], `[...document.querySelectorAll('#survey-answers tbody tr')].map(r => r.textContent).join(' | ')`); got != "1you−1 (slightly disagree)" {
		t.Errorf("Bob's dashboard lists the answers %q; want his own alone, in plain words", got)
	}
	do(t, c.teacher, "the teacher's dashboard", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(c.room, "/")+"/dashboard"),
		waitText(`#survey-answers`, "Every survey answer"), waitText(`#survey-answers`, "Cat"), waitText(`#survey-answers`, "Bob"))
	s := replayRoom(t, e, c.room)
	if len(s.Rounds) != 1 || len(s.Rounds[0].Surveys) != 2 {
		t.Errorf("the questionnaire recorded rounds %+v; want one round of 2 answers", s.Rounds)
	}
}

// dashboards opens the dashboard on both students' screens, waits for
// what it shows, checks that nothing overflows (at 390 px on Bob's phone,
// 1280 px on Cat's laptop) and keeps screenshots of it (see shoot).
func (e *browserEnv) dashboards(t *testing.T, c class, what string, shows ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	for _, name := range []string{"Bob", "Cat"} {
		tab := c.students[name]
		do(t, tab, name+"'s dashboard", append([]chromedp.Action[chromedp.Void]{
			chromedp.Navigate(e.p.URL() + strings.TrimPrefix(c.room, "/") + "/dashboard"), chromedp.WaitVisible(chromedp.CSS(`main`))}, shows...)...)
		if sw, w := eval[int](t, tab, `document.documentElement.scrollWidth`), eval[int](t, tab, `innerWidth`); sw > w {
			t.Errorf("%s dashboard is %d px wide on %s's %d px screen", what, sw, name, w)
		}
	}
	c.shoot(t, e, what+"-dashboard")
}

// shoot checks that both students' pages fit their screens' width and
// keeps screenshots of them, named what and the screen's size, in
// ROUNDTABLE_SCREENSHOT_DIR (when it is set).
func (c class) shoot(t *testing.T, e *browserEnv, what string) {
	t.Helper()
	for name, tab := range c.students {
		w, h := eval[int](t, tab, `innerWidth`), eval[int](t, tab, `innerHeight`)
		if sw := eval[int](t, tab, `document.documentElement.scrollWidth`); sw > w {
			t.Errorf("%s: %s's page is %d px wide on a %d px screen", what, name, sw, w)
		}
		e.screenshot(t, tab, fmt.Sprintf("%s-%dx%d.png", what, w, h))
	}
}
