package web

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// TableSettings are a table's settings as the create form shows them: a
// preset's, or the server's defaults.
type TableSettings struct {
	Config roundtable.Config
	Agents []string // names of the bot agents seated
	// Options are the start command's options the settings give beside
	// Config (bot.Preset.Options over bot.Config.Options): how the table
	// starts, whether the Facilitator votes.
	Options map[string]string
}

// formValues are the create form's fields for settings s.
func (s TableSettings) formValues() map[string]string {
	c := s.Config
	v := map[string]string{"rule": string(c.Rule), "mode": string(c.Mode), "early_stop": string(c.EarlyStop), "title": c.Title,
		"message": shortDuration(c.Durations.Message), "proposal": shortDuration(c.Durations.Proposal), "vote": shortDuration(c.Durations.Vote),
		"secret": secretValue(c.Secret)}
	if c.Rounds > 0 {
		v["rounds"] = strconv.Itoa(c.Rounds)
	}
	for _, k := range []string{"start", "seats", "start_at"} {
		v[k] = s.Options[k]
	}
	if yes(s.Options["facilitator_votes"]) {
		v["facilitator_votes"] = "yes"
	}
	if c.Protocol != nil && !c.Protocol.Plays(roundtable.PhaseVote) {
		for i, it := range c.Protocol.Items() {
			if i < maxItems {
				v[fmt.Sprintf("item%d_title", i+1)] = it
				v[fmt.Sprintf("item%d_document", i+1)] = c.Task.Params[roundtable.DocParam+it]
			}
		}
	}
	for k, x := range v {
		if x == "" {
			delete(v, k)
		}
	}
	return v
}

// presetJSON is what the lobby's script sets the form to when a preset is
// chosen: its fields; its agents (possibly none); the bots it offers,
// each with its parts there; whether it votes (the Facilitator's vote is
// then a choice) and whether it judges items (a panel).
func (s TableSettings) presetJSON(offer []bot.BotOffer) string {
	pr := s.Config.Protocol
	b, _ := json.Marshal(struct { // plain data: cannot fail
		Fields map[string]string `json:"fields"`
		Agents []string          `json:"agents"`
		Offer  []bot.BotOffer    `json:"offer"`
		Votes  bool              `json:"votes"`
		Rates  bool              `json:"rates"`
	}{s.formValues(), append([]string{}, s.Agents...), append([]bot.BotOffer{}, offer...), pr.Plays(roundtable.PhaseVote), rates(pr)})
	return string(b)
}

// yes reads a yes/no start option as the bot does.
func yes(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "true", "on", "1":
		return true
	}
	return false
}

// shortDuration writes 3m0s as 3m and 1h30m0s as 1h30m.
func shortDuration(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// presetOption is a preset in the create form's select.
type presetOption struct {
	Name     string
	Settings string // presetJSON, for the lobby's script
}

// secretValue is the create form's Ballots choice for s (the start
// command's secret option).
func secretValue(s roundtable.Secrecy) string {
	switch {
	case s.Research:
		return "research"
	case s.Ballots:
		return "yes"
	}
	return "no"
}

// rates reports whether tables of schedule pr judge items (a panel).
func rates(pr *roundtable.Protocol) bool {
	return pr != nil && !pr.Plays(roundtable.PhaseVote) && len(pr.Items()) > 0
}
