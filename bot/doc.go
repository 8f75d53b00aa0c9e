// Package bot is the platform-neutral chat application: it turns what people
// do in a chat (commands, thread messages, button clicks, form submissions)
// into moderator actions, drives live tables with deadlines from an injected
// clock, asks bot agents at every phase, and renders phases, candidates,
// tallies and decisions back to the channel.
//
// Chat platforms plug in through the Platform interface (adapters/discord,
// adapters/slack, adapters/web). Each adapter normalises its native events
// into Event once, at its edge, and renders Message, Control and Form with
// its own widgets; package bottest holds the conformance suite every adapter
// passes.
package bot
