package agent

import (
	"context"
	"encoding/json"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// LLM completes chat prompts; it is the agent's only way to a model.
//
// Implementations must follow this contract:
//   - Complete is safe for concurrent use by many agents and tables.
//   - It honours ctx: once ctx is done it returns promptly with an error
//     whose chain holds ctx.Err().
//   - It retries transient failures (rate limits, server errors, timeouts of
//     single attempts) itself, within ctx; a returned error is final.
//   - A returned error is an *Error carrying a Code and the usage spent on
//     the failed request; callers treat any other error as CodeUnavailable.
//   - Response.Content is the model's raw text. The LLM does not validate it
//     against Request.Schema, even when the endpoint enforces schemas.
//   - Response.Usage counts this request: Calls 1, its tokens, LatencyMS
//     over all attempts and waits, and Retries.
//   - Error messages never contain credentials.
type LLM interface {
	Complete(ctx context.Context, req Request) (Response, error)
}

// OutputModer is an optional capability of an LLM: the structured-output
// mode its endpoint supports. An LLM without it is taken to support
// OutputJSONSchema.
type OutputModer interface {
	OutputMode() OutputMode
}

// OutputMode says how an endpoint is asked for JSON.
type OutputMode string

// The structured-output modes.
const (
	// OutputJSONSchema asks the endpoint to enforce Request.Schema.
	OutputJSONSchema OutputMode = "json_schema"
	// OutputJSONObject asks for some JSON object; the schema goes in the prompt.
	OutputJSONObject OutputMode = "json_object"
	// OutputNone asks for nothing; the schema goes in the prompt.
	OutputNone OutputMode = "none"
)

// Valid reports whether m is one of the modes.
func (m OutputMode) Valid() bool {
	return m == OutputJSONSchema || m == OutputJSONObject || m == OutputNone
}

// Role is the author of a chat message.
type Role string

// The chat roles.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// ChatMessage is one message of a prompt.
type ChatMessage struct {
	Role    Role
	Content string
}

// Schema is a named JSON schema for structured output.
type Schema struct {
	Name string
	JSON json.RawMessage
}

// Request is one endpoint-agnostic chat completion request.
type Request struct {
	Messages []ChatMessage
	// Schema is the shape the answer must have; nil asks for free text.
	Schema *Schema
	// Output is how to ask for Schema; "" means the LLM's own default.
	Output OutputMode
	// Model is the model to ask; "" means the LLM's own.
	Model string
	// Temperature is the sampling temperature; nil means the LLM's default.
	// A pointer, because 0 is a meaningful value.
	Temperature *float64
	// MaxTokens bounds the answer; 0 means the LLM's default.
	MaxTokens int
	// Seed asks the endpoint for reproducible sampling; 0 means none.
	Seed int64
	// User names who is asking (the participant), for provider-side caching
	// and abuse monitoring, and for routing in fakes.
	User string
}

// Response is a completed request.
type Response struct {
	Content string
	Usage   roundtable.Usage
	// Finish says why the model stopped: FinishStop (or "") for a whole
	// answer, FinishLength when the answer was cut at the token bound,
	// FinishRefusal when the model refused (Refusal then says why).
	Finish  Finish
	Refusal string
}

// Finish is why a model stopped writing.
type Finish string

// The finish reasons an agent tells apart.
const (
	FinishStop    Finish = "stop"
	FinishLength  Finish = "length"  // cut at max_tokens: the content is incomplete
	FinishRefusal Finish = "refusal" // a refusal or a content filter: no answer
)

// Code classifies an LLM failure.
type Code string

// The failure codes.
const (
	CodeTimeout     Code = "timeout"     // ctx or an attempt's timeout expired
	CodeCanceled    Code = "canceled"    // ctx was canceled
	CodeRateLimit   Code = "rate_limit"  // the endpoint kept answering 429
	CodeUnavailable Code = "unavailable" // server errors or network failures
	CodeRejected    Code = "rejected"    // the request itself was refused (400, 401, 404, bad config)
	// CodeOutputMode: the endpoint refused the structured-output mode of
	// the request and the LLM switched to another one (see OutputModer);
	// the caller may ask again in the new mode.
	CodeOutputMode Code = "output_mode"
	// CodeBroken: the endpoint cannot serve this run (dead, refused the
	// key, no such model, no quota left); every further call fails at once
	// with the same message, which says what to fix.
	CodeBroken Code = "broken"
)

// Error is a failed LLM request.
type Error struct {
	Code  Code
	Usage roundtable.Usage // what the failed request spent
	Err   error
}

// Error implements error.
func (e *Error) Error() string {
	if e.Err == nil {
		return "llm: " + string(e.Code)
	}
	return "llm " + string(e.Code) + ": " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }
