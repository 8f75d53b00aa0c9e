package web

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// TableSettings are a table's settings as the create form shows them: a
// preset's, or the server's defaults.
type TableSettings struct {
	Config roundtable.Config
	Agents []string // names of the bot agents seated
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
	for k, x := range v {
		if x == "" {
			delete(v, k)
		}
	}
	return v
}

// presetJSON is what the lobby's script sets the form to when a preset is
// chosen: its fields, and its agents (possibly none).
func (s TableSettings) presetJSON() string {
	b, _ := json.Marshal(struct { // plain data: cannot fail
		Fields map[string]string `json:"fields"`
		Agents []string          `json:"agents"`
	}{s.formValues(), append([]string{}, s.Agents...)})
	return string(b)
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
