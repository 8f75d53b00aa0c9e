package agent

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Options tune an Agent. The zero value is usable: full memory, the LLM's
// own structured-output mode and sampling defaults.
type Options struct {
	// Memory is MemoryFull (default), MemoryWindow or MemoryReflective.
	Memory string `toml:"memory" json:"memory,omitempty"`
	// Window is how many rounds MemoryWindow keeps verbatim (default 3).
	Window int `toml:"window" json:"window,omitempty"`
	// ContextChars is the context window of a chatroom prompt: the
	// recent messages that fit in this many characters, oldest dropped
	// first (default DefaultContextChars). Chatrooms use it instead of
	// Memory.
	ContextChars int `toml:"context_chars" json:"context_chars,omitempty"`
	// StructuredOutput overrides the LLM's OutputMode; "" asks the LLM
	// (OutputModer), falling back to OutputJSONSchema.
	StructuredOutput OutputMode `toml:"structured_output" json:"structured_output,omitempty"`
	// Model, Temperature and MaxTokens are passed on with every request;
	// "", nil and 0 leave the LLM's defaults.
	Model       string   `toml:"model" json:"model,omitempty"`
	Temperature *float64 `toml:"temperature" json:"temperature,omitempty"`
	MaxTokens   int      `toml:"max_tokens" json:"max_tokens,omitempty"`
	// Signal, when set, makes a chatroom agent's persona follow its
	// messages as Conversational bias's does (section 3.1): each message
	// is classified, and the next persona states the level read in it.
	// Nil keeps the assigned persona for the whole chat.
	Signal OpinionSignal `toml:"-" json:"-"`
	// Logger receives warnings about memory updates; nil discards them.
	Logger *slog.Logger `toml:"-" json:"-"`
}

// Validate reports the first problem with o, naming the field.
func (o Options) Validate() error {
	switch o.Memory {
	case "", MemoryFull, MemoryWindow, MemoryReflective:
	default:
		return fmt.Errorf("memory: unknown policy %q (want %s, %s or %s)", o.Memory, MemoryFull, MemoryWindow, MemoryReflective)
	}
	if o.Window < 0 {
		return fmt.Errorf("window: %d is negative", o.Window)
	}
	if o.ContextChars < 0 {
		return fmt.Errorf("context_chars: %d is negative", o.ContextChars)
	}
	if o.StructuredOutput != "" && !o.StructuredOutput.Valid() {
		return fmt.Errorf("structured_output: unknown mode %q (want json_schema, json_object or none)", o.StructuredOutput)
	}
	if o.MaxTokens < 0 {
		return fmt.Errorf("max_tokens: %d is negative", o.MaxTokens)
	}
	return nil
}

// Agent is a roundtable.Agent that asks an LLM. One Agent can play every
// participant of many tables at once: it keeps no per-participant state
// except the notes of MemoryReflective.
type Agent struct {
	llm   LLM
	task  roundtable.Task
	opt   Options
	log   *slog.Logger
	notes *notebook
}

var (
	_ roundtable.Agent     = (*Agent)(nil)
	_ roundtable.Described = (*Agent)(nil)
)

// New returns an Agent for tables of task that asks llm. Invalid options
// fall back to their defaults (call Options.Validate to report them).
func New(llm LLM, task roundtable.Task, opt Options) *Agent {
	if opt.Memory != MemoryWindow && opt.Memory != MemoryReflective {
		opt.Memory = MemoryFull
	}
	if opt.Window <= 0 {
		opt.Window = DefaultWindow
	}
	if opt.ContextChars <= 0 {
		opt.ContextChars = DefaultContextChars
	}
	if !opt.StructuredOutput.Valid() {
		opt.StructuredOutput = "" // ask the LLM per request: its mode can change (a downgrade)
	}
	log := opt.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Agent{llm: llm, task: task, opt: opt, log: log, notes: &notebook{pages: map[string]*page{}}}
}

// Forget drops the reflective notes kept for a table, once it has ended.
func (a *Agent) Forget(table string) { a.notes.forget(table) }

// Act implements roundtable.Agent. It returns an error only for a phase it
// cannot act in; model failures and invalid answers come back as
// roundtable.Fail, with the usage spent on them.
func (a *Agent) Act(ctx context.Context, v roundtable.View) (roundtable.Action, error) {
	act, err := a.act(ctx, v)
	if err != nil {
		return nil, err
	}
	return a.withPersona(ctx, v, act), nil
}

func (a *Agent) act(ctx context.Context, v roundtable.View) (roundtable.Action, error) {
	if act, ok := a.actScheduled(ctx, v); ok {
		return act, nil
	}
	var u roundtable.Usage
	switch v.Phase {
	case roundtable.PhaseMessage:
		return a.decide(ctx, v, &u, messageSchema(otherNames(v)), messageInstruction(v),
			func(c string) (roundtable.Action, error) { return parseMessage(v, c) }), nil
	case roundtable.PhaseProposal:
		s, structured := a.proposalSchema()
		return a.decide(ctx, v, &u, s, proposalInstruction(v, structured),
			func(c string) (roundtable.Action, error) { return parseProposal(a.task, c) }), nil
	case roundtable.PhaseVote:
		if len(v.Candidates) == 0 {
			return roundtable.Cast{Ballot: abstention(v)}, nil // nothing to ask
		}
		return a.decide(ctx, v, &u, ballotSchema(v.Rule, candidateIDs(v)), voteInstruction(v),
			func(c string) (roundtable.Action, error) { return parseBallot(v, c) }), nil
	}
	return nil, fmt.Errorf("agent: no decision to make in phase %s", v.Phase)
}

func (a *Agent) proposalSchema() (*Schema, bool) {
	if st, ok := a.task.(roundtable.StructuredTask); ok {
		name, data := st.ProposalSchema()
		return proposalSchema(name, data), true
	}
	return proposalSchema("proposal", nil), false
}

// outputMode is how to ask for JSON now: the option if set, else the
// LLM's current mode (OutputModer), else OutputJSONSchema.
func (a *Agent) outputMode() OutputMode {
	if a.opt.StructuredOutput != "" {
		return a.opt.StructuredOutput
	}
	if m, ok := a.llm.(OutputModer); ok && m.OutputMode().Valid() {
		return m.OutputMode()
	}
	return OutputJSONSchema
}

// decide asks for one decision, re-asks once after an invalid answer, and
// returns the action with the usage of every call made for it. A cut-off
// answer or a refusal is a failure of its own kind, not a format error.
func (a *Agent) decide(ctx context.Context, v roundtable.View, u *roundtable.Usage, s *Schema, instruction string,
	parse func(string) (roundtable.Action, error)) roundtable.Action {
	prompt := a.historyText(ctx, v, u) + instruction
	mode := a.outputMode()
	msgs := a.messages(prompt, mode, v, s)
	var invalid error
	for attempt := range 2 {
		resp, err := a.complete(ctx, a.request(v, v.Phase, attempt, msgs, s, mode), u)
		if isCode(err, CodeOutputMode) && a.outputMode() != mode {
			mode = a.outputMode() // the endpoint switched modes: ask again, spelling the schema out
			msgs = append(a.messages(prompt, mode, v, s), msgs[2:]...)
			resp, err = a.complete(ctx, a.request(v, v.Phase, attempt, msgs, s, mode), u)
		}
		if err != nil {
			return failure(ctx, err, *u)
		}
		if f, ok := unfinished(resp, s); ok {
			f.Usage = u
			return f
		}
		act, err := parse(resp.Content)
		if err == nil {
			return withUsage(act, *u)
		}
		invalid = err
		msgs = append(msgs, ChatMessage{RoleAssistant, resp.Content}, ChatMessage{RoleUser, repairPrompt(err)})
	}
	return roundtable.Fail{Kind: "format", Reason: fmt.Sprintf("invalid %s answer twice: %v", s.Name, invalid), Usage: u}
}

// messages lays out a prompt: the fixed system part first, then the
// changing part, with the schema spelled out when the endpoint does not
// enforce it.
func (a *Agent) messages(user string, mode OutputMode, v roundtable.View, s *Schema) []ChatMessage {
	if mode != OutputJSONSchema {
		user += schemaHint(s)
	}
	return []ChatMessage{{RoleSystem, systemPrompt(v)}, {RoleUser, user}}
}

// complete calls the LLM and adds what the call spent to u.
func (a *Agent) complete(ctx context.Context, req Request, u *roundtable.Usage) (Response, error) {
	resp, err := a.llm.Complete(ctx, req)
	*u = u.Add(usageOf(resp, err))
	return resp, err
}

func (a *Agent) request(v roundtable.View, phase roundtable.Phase, attempt int, msgs []ChatMessage, s *Schema, mode OutputMode) Request {
	return Request{
		Messages: msgs, Schema: s, Output: mode,
		Model: a.opt.Model, Temperature: a.opt.Temperature, MaxTokens: a.opt.MaxTokens,
		Seed: seedFor(v, phase, attempt), User: v.Self.Name,
	}
}

// seedFor derives a per-request seed from the table's seed, so a rerun asks
// the same questions with the same seeds.
func seedFor(v roundtable.View, phase roundtable.Phase, attempt int) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%s|%d|%d|%d", v.Seed, v.Table, v.Self.ID, v.Round, phase, attempt)
	return int64(h.Sum64()&(1<<31-1)) + 1 // positive and within an int32, which every endpoint accepts
}

// usageOf is what a call spent, whether it succeeded or not.
func usageOf(resp Response, err error) roundtable.Usage {
	if err == nil {
		return resp.Usage
	}
	var u roundtable.Usage
	if e := (*Error)(nil); errors.As(err, &e) {
		u = e.Usage
	}
	u.Calls = max(u.Calls, 1)
	return u
}

// unfinished turns an answer cut at the token bound, or a refusal, into a
// failure of kind "length" or "refusal".
func unfinished(resp Response, s *Schema) (roundtable.Fail, bool) {
	switch resp.Finish {
	case FinishLength:
		return roundtable.Fail{Kind: "length", Reason: fmt.Sprintf("the %s answer was cut off at the token limit (finish_reason length); raise max_tokens", s.Name)}, true
	case FinishRefusal:
		why := resp.Refusal
		if why == "" {
			why = "no reason given"
		}
		return roundtable.Fail{Kind: "refusal", Reason: fmt.Sprintf("the model refused the %s request: %s", s.Name, why)}, true
	}
	return roundtable.Fail{}, false
}

func isCode(err error, c Code) bool {
	e := (*Error)(nil)
	return errors.As(err, &e) && e.Code == c
}

// failure turns a final LLM error into a Fail of kind "timeout" when time
// ran out and "error" otherwise.
func failure(ctx context.Context, err error, u roundtable.Usage) roundtable.Action {
	kind := "error"
	var e *Error
	if ctx.Err() != nil || (errors.As(err, &e) && e.Code == CodeTimeout) {
		kind = "timeout"
	}
	return roundtable.Fail{Kind: kind, Reason: err.Error(), Usage: &u}
}

func withUsage(act roundtable.Action, u roundtable.Usage) roundtable.Action {
	switch a := act.(type) {
	case roundtable.Say:
		a.Usage = &u
		return a
	case roundtable.Propose:
		a.Usage = &u
		return a
	case roundtable.Skip:
		a.Usage = &u
		return a
	case roundtable.Cast:
		a.Usage = &u
		return a
	case roundtable.Report:
		a.Usage = &u
		return a
	}
	return act
}

func abstention(v roundtable.View) vote.Ballot {
	return vote.Ballot{Voter: v.Self.ID, Abstain: true}
}
