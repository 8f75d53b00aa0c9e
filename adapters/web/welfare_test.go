package web_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/bot/bottest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/task/exchange"
	rtvote "github.com/roundtable-ai/roundtable/roundtable/vote"
	"github.com/roundtable-ai/roundtable/store"
)

// The dashboard charts the welfare of each round's decision (U/U_max)
// for a table whose task can tell it (roundtable.Welfare: the exchange
// economy), asking the task the bot runs the table with; a text table
// has no such chart.
func TestTheDashboardChartsWelfareWhenTheTaskTellsIt(t *testing.T) {
	e := newLiveEnvWith(t, web.Config{}, func(p bot.Platform, db *store.DB, clock *bottest.Clock) *bot.Service {
		cfg := bot.Config{Defaults: roundtable.Config{Rule: rtvote.Plurality, Rounds: 2, Mode: roundtable.Sealed,
			Durations: roundtable.Durations{Message: time.Minute, Proposal: time.Minute, Vote: time.Minute}},
			Agents: map[string]roundtable.Participant{}, Presets: map[string]bot.Preset{}}
		preset := cfg.Defaults
		preset.Task = roundtable.TaskSpec{Kind: "exchange", Topic: "Share out three goods"}
		var traders []string
		for i := range 2 {
			name := fmt.Sprintf("Trader %d", i+1)
			cfg.Agents[name] = roundtable.Participant{ID: fmt.Sprintf("agent:trader-%d", i+1), Name: name, Kind: roundtable.Bot, Agent: "utility"}
			traders = append(traders, name)
		}
		cfg.Presets[exchangePreset] = bot.Preset{Name: exchangePreset, Config: preset, Agents: traders}
		deps := bot.Deps{Store: db, Clock: clock, Task: func(spec roundtable.TaskSpec, _ int) (roundtable.Task, error) {
			if spec.Kind == "exchange" {
				return exchange.NewTask(3, exchange.Asymmetric)
			}
			return roundtable.TextTask{Topic: spec.Topic}, nil
		}, Agent: func(_ roundtable.Participant, task roundtable.Task) (roundtable.Agent, error) {
			if x, ok := task.(*exchange.Task); ok {
				return &exchange.UtilityAgent{Task: x}, nil
			}
			return bottest.Scribe{}, nil
		}}
		return bot.New(cfg, deps, p)
	})
	ann := e.browser(t, "Ann")
	for _, c := range []struct {
		form  url.Values
		chart bool
	}{
		{url.Values{"preset": {exchangePreset}, "topic": {""}, "agents": {"Trader 1", "Trader 2"}}, true},
		{url.Values{"topic": {"Lunch?"}}, false},
	} {
		room, _ := e.start(t, ann, c.form)
		code, page := e.send(t, ann, "GET", "/r/"+room+"/dashboard", nil)
		if code != http.StatusOK {
			t.Fatalf("dashboard: %d %s", code, page)
		}
		if got := strings.Contains(page, "Welfare of the decision after each round"); got != c.chart {
			t.Errorf("the dashboard of a table started with %v has the welfare chart: %v, want %v", c.form, got, c.chart)
		}
	}
}
