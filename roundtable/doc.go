// Package roundtable is the deliberation domain: tables, participants, rounds,
// the three phases (message, proposal, vote), the moderator that validates
// every action, records it as an event and applies it, and the interfaces the
// domain needs from the outside world (Store, Agent, Clock, Task).
//
// A table's State is a fold over its events: replaying the stored log
// rebuilds exactly the state the moderator had when it wrote it. The package
// imports no chat SDK, no storage engine and no LLM client.
package roundtable
