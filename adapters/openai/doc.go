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
// or an HTTP date), rebuilding the body with http.Request.GetBody.
//
// Structured output follows Config.StructuredOutput (or the request's own
// mode): json_schema sends the schema as a strict response_format,
// json_object asks for any JSON object, none sends nothing; the agent puts
// the schema in the prompt for the last two, and learns the mode through
// Client.OutputMode.
//
// The API key is held as a Secret, which prints, logs and encodes as
// "[redacted]", and it is scrubbed from every error message.
package openai
