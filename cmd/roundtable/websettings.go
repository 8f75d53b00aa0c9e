package main

import (
	"maps"
	"slices"
	"strings"

	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable/facilitator"
)

// webDefaults is the bot's table defaults as the web's create form shows
// them.
func webDefaults(bc bot.Config) web.TableSettings {
	return web.TableSettings{Config: bc.Defaults.WithDefaults(), Agents: bc.DefaultAgents, Options: bc.Options}
}

// webPresets is every preset's settings, for the web's create form.
func webPresets(bc bot.Config) map[string]web.TableSettings {
	out := make(map[string]web.TableSettings, len(bc.Presets))
	for name, p := range bc.Presets {
		if isStudyPreset(name) {
			continue
		}
		opts := maps.Clone(bc.Options) // the server's start settings, a preset's over them
		if opts == nil {
			opts = map[string]string{}
		}
		maps.Copy(opts, p.Options)
		out[name] = web.TableSettings{Config: p.Config.WithDefaults(), Agents: p.Agents, Options: opts}
	}
	return out
}

// votesIfAsked are the bot agents that vote only when the organiser asks
// for it (the Facilitator): the web's create form offers the choice.
func votesIfAsked(bc bot.Config) []string {
	var out []string
	for name, p := range bc.Agents {
		if kind, _, _ := strings.Cut(p.Agent, ":"); kind == facilitator.Kind {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
