package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/store"
)

// The organiser of a live panel, in the browser: during the table the
// dashboard says the agents' mental models of self are private and shows
// none; once the panel has ended it lists them, inside the page's width.
func TestBrowserPanelSelfModelsOnTheDashboardAfterTheEnd(t *testing.T) {
	requireBrowser(t)
	e := newBrowserEnvWith(t, web.Config{Agents: []string{"Scribe"}, Presets: []string{bottest.PanelPreset}},
		func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
			return bottest.Service(p, db, clock, func(roundtable.Participant, roundtable.Task) (roundtable.Agent, error) { return modeller{}, nil })
		})
	ann := e.browsers(t, 1)[0]
	room := e.startPreset(t, ann, bottest.PanelPreset, "3", "Protocol: panel")
	do(t, ann, "round 1", waitText(`#phase`, "Round 1 of 3 · message"))
	say(t, ann, "Ann is great. Ben is weak.")
	do(t, ann, "the dashboard during the table", waitText(`#phase`, "survey phase"), chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"),
		waitText(`#self-models`, "private until the table ends"))
	if body := eval[string](t, ann, `document.body.textContent`); strings.Contains(body, modelMarker) {
		t.Error("the dashboard shows a mental model of self while the table runs")
	}
	do(t, ann, "back to the room", chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")), chromedp.WaitVisible(chromedp.CSS(`#posts .post`)))
	answer(t, ann, "0.8", "-0.3")
	for _, r := range []string{"2", "3"} {
		do(t, ann, "round "+r, until(`document.querySelector('#phase').textContent.includes('Round `+r+` of 3 · message') || document.querySelector('#posts').textContent.includes('has ended')`, "for round "+r+" or the end"))
		if eval[bool](t, ann, `document.querySelector('#posts').textContent.includes('has ended')`) {
			break
		}
		say(t, ann, "Ann is great. Ben is weak.")
		answer(t, ann, "0.8", "-0.3")
	}
	do(t, ann, "the dashboard after the end", waitText(`#posts`, "has ended"),
		chromedp.Navigate(e.p.URL()+strings.TrimPrefix(room, "/")+"/dashboard"),
		waitText(`#self-models`, modelMarker+" a careful reviewer"), waitText(`#self-models`, "evidence over charm"))
	if !eval[bool](t, ann, `document.documentElement.scrollWidth <= document.documentElement.clientWidth`) {
		t.Error("the dashboard overflows the page's width")
	}
	do(t, ann, "scroll to the models", chromedp.ScrollIntoView(chromedp.CSS(`#self-models`)))
	e.screenshot(t, ann, "panel-self-models.png")
}
