// Package discord is the bot.Platform for Discord, built on
// github.com/bwmarrin/discordgo.
//
// It speaks the gateway for events (slash commands, component clicks,
// modal submits, messages) and the REST API for everything it shows. Events
// are normalised once, in convert.go, into bot.Event and handed to the
// service in order per channel. Agents speak under their own names through
// one channel webhook per parent channel, named "roundtable". Replies to
// interactions are deferred automatically when the service takes longer
// than Discord's three-second window allows.
//
// Config.APIURL points the whole client (REST and the gateway URL lookup)
// at another server, through a per-session HTTP transport that rewrites
// request URLs; discordgo's package-level endpoint variables are never
// touched, so several platforms can talk to several servers at once.
// Package discordtest holds such a server: a fake Discord for tests.
package discord
