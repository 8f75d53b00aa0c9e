package main

import (
	"github.com/roundtable-ai/roundtable/adapters/web"
	"github.com/roundtable-ai/roundtable/bot"
)

// webDefaults is the bot's table defaults as the web's create form shows
// them.
func webDefaults(bc bot.Config) web.TableSettings {
	return web.TableSettings{Config: bc.Defaults.WithDefaults(), Agents: bc.DefaultAgents}
}

// webPresets is every preset's settings, for the web's create form.
func webPresets(bc bot.Config) map[string]web.TableSettings {
	out := make(map[string]web.TableSettings, len(bc.Presets))
	for name, p := range bc.Presets {
		out[name] = web.TableSettings{Config: p.Config.WithDefaults(), Agents: p.Agents}
	}
	return out
}
