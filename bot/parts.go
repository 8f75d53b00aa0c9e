package bot

import (
	"maps"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
)

// Bots say what they do: each bot's parts (roundtable.Part) are recorded
// on its seat and shown wherever people see it (the intro, the status,
// the web room through Tables.Opening, the create form through
// Tables.Offer). The Facilitator speaks, and votes only when the
// organiser asks for it (the facilitator_votes option); other bots play
// every part of the table's schedule.

// seatedBot is bot p as it sits at a new table: the Facilitator with its
// parts (votes: the organiser asked it to vote).
func seatedBot(p roundtable.Participant, votes bool) roundtable.Participant {
	if kind, _, _ := strings.Cut(p.Agent, ":"); kind == facilitator.Kind {
		p.Parts = facilitator.Parts(votes)
	}
	return p
}

// yesNo reads a yes/no option; empty is no.
func yesNo(key, v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "no", "false", "off", "0":
		return false, nil
	case "yes", "true", "on", "1":
		return true, nil
	}
	return false, roundtable.Errorf(roundtable.Invalid, "%s: %q is not yes or no", key, v)
}

// options are a start command's options over its preset's
// (Preset.Options) and the server's (Config.Options).
func (s *Service) options(given map[string]string) map[string]string {
	out := map[string]string{}
	maps.Copy(out, s.cfg.Options)
	if name := given["preset"]; name != "" {
		maps.Copy(out, s.cfg.Presets[name].Options)
	}
	maps.Copy(out, given)
	return out
}

// BotOffer is a bot agent a table offers, with what it does there.
type BotOffer struct {
	Name  string            `json:"name"`
	Parts []roundtable.Part `json:"parts"`
}

// Offer lists the bot agents the create form offers with preset (""
// for a table without one): those that can sit at it (Deps.Seatable),
// sorted by name, each with its parts there (the Facilitator's as the
// preset's or the server's facilitator_votes sets them).
func (t *Tables) Offer(preset string) ([]BotOffer, error) {
	s := t.svc
	cfg := s.cfg.Defaults
	if preset != "" {
		p, ok := s.cfg.Presets[preset]
		if !ok {
			return nil, roundtable.Errorf(roundtable.NotFound, "there is no preset named %q", preset)
		}
		cfg = p.Config
	}
	votes, _ := yesNo("facilitator_votes", s.options(map[string]string{"preset": preset})["facilitator_votes"])
	var out []BotOffer
	for _, name := range s.agentNames() {
		p := seatedBot(s.cfg.Agents[name], votes)
		if s.deps.Seatable != nil && s.deps.Seatable(p, cfg) != nil {
			continue
		}
		out = append(out, BotOffer{Name: name, Parts: cfg.PartsAt(p)})
	}
	return out, nil
}
