// Package openai is the agent.LLM for any OpenAI-compatible chat completions
// endpoint (OpenAI, vLLM, llama.cpp, Ollama, ...), built on
// github.com/sashabaranov/go-openai.
//
// go-openai does one HTTP request per call and drops Retry-After, so this
// package does the rest below it, in an HTTPDoer that go-openai calls: per
// attempt it waits for the endpoint's requests-per-minute and
// tokens-per-minute budgets and a concurrency slot, bounds the attempt with
// Config.Timeout, and retries 408, 429, 5xx and network failures with
// exponential backoff and jitter, or after the server's Retry-After (seconds
// or an HTTP date), rebuilding the body with http.Request.GetBody. An
// attempt that timed out is not retried: a hung server would hold every
// retry as long again.
//
// Temperature 0 is sent as 0: go-openai drops a zero temperature
// (omitempty), so the transport writes it into the body; an unset
// temperature is not sent, and the server's default applies.
//
// Each Client has a circuit breaker (Done, Err). It opens after
// Config.BreakerFailures calls in a row got no answer (no server, 5xx
// after their retries, an attempt timed out, or the caller's deadline
// passed while the server had the request and said nothing), or
// at once on an answer no retry can change: 401 or 403 (the
// key), 404 (the model or base_url), 429 insufficient_quota (no credit,
// never retried like a rate limit), or a refused json_schema when the mode
// is pinned. Its error names the endpoint and what to fix; once open,
// every call fails at once, so a run stops with one message.
//
// An answer cut at the token bound (finish_reason "length") or a refusal
// is reported in agent.Response.Finish, not as malformed JSON.
//
// Structured output follows Config.StructuredOutput (or the request's own
// mode): json_schema sends the schema as a strict response_format,
// json_object asks for any JSON object, none sends nothing; the agent puts
// the schema in the prompt for the last two, and learns the mode through
// Client.OutputMode. An unset mode is json_schema until the server refuses
// it (a 400 naming response_format or json_schema); the client then falls
// back to json_object once, logs it, and answers agent.CodeOutputMode so
// the agent asks again with the schema in the prompt.
//
// The API key is held as a Secret, which prints, logs and encodes as
// "[redacted]", and it is scrubbed from every error message.
package openai
