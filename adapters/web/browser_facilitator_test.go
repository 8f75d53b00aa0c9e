package web_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
	rtvote "github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// newFacilitatorEnv serves tables of one round where the Facilitator may
// sit (playing as the Scribe: what it may do is its seat's parts).
func newFacilitatorEnv(t *testing.T) *browserEnv {
	defaults := roundtable.Config{Rule: rtvote.Plurality, Rounds: 1, Mode: roundtable.Sealed,
		Durations: roundtable.Durations{Message: 2 * time.Minute, Proposal: 2 * time.Minute, Vote: 2 * time.Minute}}
	cfg := bot.Config{Defaults: defaults, Policy: bot.Policy{Manager: true},
		Agents: map[string]roundtable.Participant{"Facilitator": {ID: "agent:facilitator", Name: "Facilitator", Kind: roundtable.Bot, Agent: facilitator.Kind}}}
	wcfg := web.Config{Agents: []string{"Facilitator"}, VotesIfAsked: []string{"Facilitator"},
		Defaults: web.TableSettings{Config: defaults.WithDefaults()}}
	return newBrowserEnvWith(t, wcfg, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		return bot.New(cfg, bot.Deps{Store: db, Clock: clock,
			Agent: func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) { return bottest.Scribe{}, nil },
			Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
				return roundtable.TextTask{Topic: spec.Topic}, nil
			}}, p)
	})
}

// TestBrowserFacilitatorVotesOnlyWhenAsked: the create form says what the
// Facilitator does, and its vote is a box left unticked; the room says it
// too; its ballot is counted only at the table whose organiser ticked it.
func TestBrowserFacilitatorVotesOnlyWhenAsked(t *testing.T) {
	requireBrowser(t)
	e := newFacilitatorEnv(t)
	tab := e.browsers(t, 1)[0]
	const parts = `document.querySelector('label.agent[data-agent=Facilitator] .parts').textContent`
	do(t, tab, "the lobby", chromedp.EmulateViewport(390, 844), chromedp.Navigate(e.p.HostURL()), chromedp.WaitVisible(chromedp.CSS(`#topic`)))
	if got := eval[string](t, tab, parts); got != "(speaks)" {
		t.Errorf("the form says the Facilitator does %q, want (speaks)", got)
	}
	if !eval[bool](t, tab, `document.querySelector('input[name=facilitator_votes]').checkVisibility() && !document.querySelector('input[name=facilitator_votes]').checked`) {
		t.Error("the Facilitator's vote is not offered as an unticked box")
	}
	do(t, tab, "tick its vote", chromedp.Click(chromedp.CSS(`input[name=facilitator_votes]`)))
	if got := eval[string](t, tab, parts); got != "(speaks, votes)" {
		t.Errorf("ticked, the form says the Facilitator does %q, want (speaks, votes)", got)
	}
	if sw := eval[int](t, tab, `document.documentElement.scrollWidth`); sw > 390 {
		t.Errorf("the lobby is %d px wide on a 390 px screen", sw)
	}
	for _, votes := range []bool{false, true} {
		room := e.facilitatorTable(t, tab, votes)
		s := replayRoom(t, e, room)
		want := 1
		if votes {
			want = 2
		}
		if r := s.Rounds[0]; r.Tally == nil || len(r.Tally.Ballots) != want {
			t.Errorf("asked to vote: %v; the round counted %+v, want %d ballots", votes, r.Tally, want)
		}
	}
}

// facilitatorTable plays a table of Ann and the Facilitator, its vote
// ticked or not, and returns its room's path.
func (e *browserEnv) facilitatorTable(t *testing.T, tab context.Context, votes bool) string {
	do(t, tab, "create the table",
		chromedp.Navigate(e.p.HostURL()),
		chromedp.WaitVisible(chromedp.CSS(`#topic`)),
		chromedp.SetValue(chromedp.CSS(`#name`), "Ann"),
		sendKeys(chromedp.CSS(`#topic`), "Where do we eat?"),
		chromedp.Click(chromedp.CSS(`input[name=agents][value=Facilitator]`)))
	if votes {
		do(t, tab, "ask the Facilitator to vote", chromedp.Click(chromedp.CSS(`input[name=facilitator_votes]`)))
	}
	want := "Facilitator (bot): speaks"
	if votes {
		want += ", votes"
	}
	do(t, tab, "start it", chromedp.Click(chromedp.CSS(`form[action="/start"] button[type=submit]`)),
		waitText(`#wait-people`, want), pressStart(),
		sendKeys(chromedp.CSS(`#say`), "Soup?\r"), waitText(`#phase`, "proposal phase"),
		sendKeys(chromedp.CSS(`#proposal-text`), "Soup"), chromedp.Click(chromedp.CSS(`#propose-send`)),
		waitText(`#phase`, "vote phase"))
	vote(t, tab, "Soup")
	do(t, tab, "the end", waitText(`#posts`, "The table has ended"))
	return eval[string](t, tab, `location.pathname`)
}
