// Package roundtable is the deliberation domain: tables, participants, rounds
// and their phases (message, proposal and vote, which make RoundTable's
// round, and the survey and private-message phases other protocols
// schedule), the schedules of phases (Protocol), the one visibility rule
// (Viewer.May), the moderator that validates every action, turns it into
// events, applies them and records them, and the interfaces the domain needs
// from the outside world (Store, Agent, Clock, Task).
//
// A table's State is a fold over its events: replaying the stored log
// rebuilds exactly the state the moderator had when it wrote it. What each
// rule and measure does is described in docs/protocol.md. The package
// imports no chat SDK, no storage engine and no LLM client.
package roundtable
