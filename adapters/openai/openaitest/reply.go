package openaitest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Handler scripts the server: it sees each decoded request and says how to
// answer. It is called concurrently and must honour ctx only if it blocks.
type Handler func(ctx context.Context, r *Request) Reply

// Reply is how the server answers one request.
type Reply struct {
	Content    string // the assistant message, for a 200 answer
	Status     int    // HTTP status; 0 means 200
	Message    string // error message for a non-200 answer
	Body       string // a raw body to send as is (e.g. an HTML 502 page), instead of the JSON error
	RetryAfter string // Retry-After header value
	// Hang makes the server wait until the client gives up (the request's
	// context ends) or the server closes, without answering.
	Hang bool
	// PromptTokens and CompletionTokens are reported in usage; zero means
	// an estimate of four bytes a token.
	PromptTokens, CompletionTokens int
	// FinishReason is the choice's finish_reason ("" means "stop"), e.g.
	// "length" or "content_filter".
	FinishReason string
	// Refusal is the assistant message's refusal, as OpenAI sends when a
	// model declines a structured-output request.
	Refusal string
	// Code and Type are the error body's "code" and "type" for a non-200
	// answer ("" picks them from the status); Param is its "param" (the
	// request field at fault, "" for null).
	Code, Type, Param string
	// Drop closes the connection without an answer, as a dying server or
	// a reset connection would.
	Drop bool
	// Model is the model the answer says answered; "" is the one the
	// request asked for (a real server may answer with another: a dated
	// version of the model asked, or whatever it serves).
	Model string
}

// Truncated answers with content cut at the token bound: finish_reason
// "length".
func Truncated(content string) Reply { return Reply{Content: content, FinishReason: "length"} }

// Refused answers with a refusal and no content, as OpenAI does when a
// model declines a structured-output request.
func Refused(why string) Reply { return Reply{Refusal: why, FinishReason: "stop"} }

// Unauthorized answers 401 invalid_api_key.
func Unauthorized() Reply {
	return Reply{Status: 401, Message: "Incorrect API key provided.", Code: "invalid_api_key"}
}

// ModelNotFound answers 404 model_not_found for model.
func ModelNotFound(model string) Reply {
	return Reply{Status: 404, Message: fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", model), Code: "model_not_found"}
}

// InsufficientQuota answers 429 insufficient_quota: no credit left, which
// a client must not retry like a rate limit.
func InsufficientQuota() Reply {
	return Reply{Status: 429, Message: "You exceeded your current quota, please check your plan and billing details.",
		Code: "insufficient_quota", Type: "insufficient_quota"}
}

// Drop closes the connection without answering.
func Drop() Reply { return Reply{Drop: true} }

// NoJSONSchema wraps next with a server that does not support json_schema
// structured output: such requests get 400 "response_format ... not
// supported", as older vLLM and llama.cpp servers answer; the rest go to
// next.
func NoJSONSchema(next Handler) Handler {
	return func(ctx context.Context, r *Request) Reply {
		if r.Format == "json_schema" {
			return Reply{Status: 400, Message: "response_format type 'json_schema' is not supported by this server", Type: "invalid_request_error"}
		}
		return next(ctx, r)
	}
}

// AnsweredBy wraps next with a server whose answers say model answered,
// whatever the request asked for, as a server that maps an alias to a
// dated version does (or one that serves a single model under any name).
func AnsweredBy(model string, next Handler) Handler {
	if next == nil {
		next = Responder{}.Handle
	}
	return func(ctx context.Context, r *Request) Reply {
		rep := next(ctx, r)
		if rep.Model == "" {
			rep.Model = model
		}
		return rep
	}
}

// Content answers with s as the assistant message.
func Content(s string) Reply { return Reply{Content: s} }

// JSON answers with v encoded as the assistant message.
func JSON(v any) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		return Status(500, fmt.Sprintf("openaitest: encode reply: %v", err))
	}
	return Reply{Content: string(b)}
}

// InvalidJSON answers with content that is not a JSON object.
func InvalidJSON() Reply { return Reply{Content: `{"to": ["Bob", "text": oops`} }

// Status answers with an HTTP error status and an OpenAI-style error body.
func Status(code int, message string) Reply { return Reply{Status: code, Message: message} }

// RateLimited answers 429 with the given Retry-After ("" for none).
func RateLimited(retryAfter string) Reply {
	return Reply{Status: 429, Message: "Rate limit reached; try again later.", RetryAfter: retryAfter}
}

// Hang never answers; the client's timeout or cancellation ends the request.
func Hang() Reply { return Reply{Hang: true} }

// Fault is an injected misbehaviour: the first Times requests that Match
// get Reply instead of what the next handler would say.
type Fault struct {
	Match func(r *Request) bool // nil matches every request
	Times int                   // 0 means once; negative means always
	Reply func(r *Request) Reply
}

// Inject returns a handler that answers with the faults first, in order,
// and with next otherwise. It is safe for concurrent use; a fault counts
// the requests it answered.
func Inject(next Handler, faults ...Fault) Handler {
	var mu sync.Mutex
	used := make([]int, len(faults))
	pick := func(r *Request) (Reply, bool) {
		mu.Lock()
		defer mu.Unlock()
		for i, f := range faults {
			times := f.Times
			if times == 0 {
				times = 1
			}
			if (f.Match == nil || f.Match(r)) && (times < 0 || used[i] < times) {
				used[i]++
				return f.Reply(r), true
			}
		}
		return Reply{}, false
	}
	return func(ctx context.Context, r *Request) Reply {
		if rep, ok := pick(r); ok {
			return rep
		}
		return next(ctx, r)
	}
}

// Always makes a fixed reply into a Fault's Reply func.
func Always(rep Reply) func(*Request) Reply { return func(*Request) Reply { return rep } }

// Persona matches requests asked by the named participant.
func Persona(name string) func(*Request) bool {
	return func(r *Request) bool { return r.Persona() == name }
}

// Schema matches requests for the named output schema.
func Schema(name string) func(*Request) bool {
	return func(r *Request) bool { return r.SchemaName == name }
}

// FirstAsk matches requests that are not a re-ask after an invalid answer.
func FirstAsk(r *Request) bool { return !r.Repair() }

// Repair matches re-asks after an invalid answer.
func Repair(r *Request) bool { return r.Repair() }

// Contains matches requests with a message that contains s.
func Contains(s string) func(*Request) bool {
	return func(r *Request) bool {
		return slices.ContainsFunc(r.Messages, func(m Message) bool { return strings.Contains(m.Content, s) })
	}
}

// All matches requests that every m matches.
func All(ms ...func(*Request) bool) func(*Request) bool {
	return func(r *Request) bool {
		for _, m := range ms {
			if !m(r) {
				return false
			}
		}
		return true
	}
}
