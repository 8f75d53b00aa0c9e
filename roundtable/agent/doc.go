// Package agent is the LLM-driven participant of a round table: it turns
// what a participant may see (a roundtable.View) into a prompt, asks a model
// through the LLM interface for one structured decision per phase, checks
// the answer against the table's task and voting rule, and returns the
// resulting roundtable.Action.
//
// # Prompts
//
// Every request has the same layout, so that provider prompt caches hit: a
// system message that never changes during a table (the participant's role,
// the rules of the protocol, the voting rule's explanation, the task brief
// and private brief, the persona), then a user message with the history the
// memory policy keeps and, last, the instruction for the current phase with
// the latest candidates and tally.
//
// # Protocols
//
// An agent never asks which protocol its table follows: what it must be
// told is the roundtable.Briefing its View carries, which the protocol
// registered (package protocol). The briefing says who the participants
// are, how the table works, whether the voting rule applies, how the
// persona is stated (plainly, or as a stance on the survey's question),
// what the agent remembers (rounds under its memory policy, the chat's
// recent messages, or its own experiences), whether a message comes with
// a mental model of self, whether survey answers are smoothed, and what a
// paired message is about. A View without a briefing is RoundTable's own
// deliberation, or a schedule nobody registered, which the prompt names.
//
// # Structured output
//
// Each decision has a JSON schema named after the action: "message",
// "proposal" (or "proposal_<task>" for a roundtable.StructuredTask),
// "vote_<rule>" with the candidate IDs as enums, and "memory" for reflective
// notes. When the endpoint cannot enforce schemas (OutputJSONObject,
// OutputNone) the schema text is added to the instruction instead. Unless
// Options.StructuredOutput is set, the mode is asked of the LLM for each
// request (OutputModer): an endpoint that refuses json_schema answers
// CodeOutputMode after switching modes, and the agent asks once more with
// the schema spelled out.
//
// # Validation and repair
//
// An answer is parsed (code fences and chatter around the JSON object are
// tolerated) and validated: recipients must be at the table, proposals must
// pass Task.Normalize, ballots vote.Rule.Check. An invalid answer is asked
// for once more, with the model's answer and the precise error appended; a
// second invalid answer becomes roundtable.Fail{Kind: "format"}. Model and
// network errors, which the LLM has already retried, become Fail{Kind:
// "error"} or Fail{Kind: "timeout"}. An answer cut at the token limit
// (Response.Finish FinishLength) becomes Fail{Kind: "length"} and a refusal
// Fail{Kind: "refusal"}, with no re-ask: neither is malformed JSON. Every
// action carries the summed Usage of all calls made for it.
//
// # Memory
//
// Options.Memory selects what history the prompt holds: MemoryFull (every
// round verbatim), MemoryWindow (the last Window rounds verbatim, 2 by
// default, and one short deterministic line per older round, no model
// call: 38% of full history's prompt at round 10 with the paper's message
// lengths, BenchmarkWindowMemory) or MemoryReflective
// (notes the model rewrites once per round, plus the last round verbatim).
package agent
