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
//
// What the bot posts is derived from each table's event log (outbox.go) and
// delivered by a courier per platform (courier.go): in order per channel,
// retried through outages, recorded in batches (records.go) once the
// platform has saved what it showed (Syncer), after the platform says it
// can post (Readier). A table whose log does not replay is
// quarantined (quarantine.go); one whose starter only organises waits for a
// person (organiser.go).
//
// A platform that shows tables itself (the web channel's pages and feed)
// reads them through the service (Tables, reader.go): each table as one
// viewer may see it, from the moderator's state in memory, or, for an
// ended table, folded once from the store and kept on a bounded shelf
// (shelf.go); and it asks the service who may manage a table
// (ManagerOnly, Tables.MayManage) rather than deciding it.
package bot
