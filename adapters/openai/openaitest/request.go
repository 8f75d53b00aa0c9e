package openaitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Request is a decoded POST /v1/chat/completions request, as the server saw
// it on the wire.
type Request struct {
	N           int // 1 for the server's first request, then 2, ...
	Model       string
	Messages    []Message
	Temperature *float64 // nil when the field was absent
	MaxTokens   int      // max_tokens or max_completion_tokens
	Seed        *int64
	User        string
	Stream      bool
	// Format is response_format.type: "", "text", "json_object" or "json_schema".
	Format string
	// SchemaName and Schema come from response_format, or, when it has
	// none, from a prompt that spells the schema out the way package agent
	// does: `the JSON schema "NAME":` followed by the schema on the next line
	// (SchemaInPrompt is then true).
	SchemaName     string
	Schema         json.RawMessage
	SchemaInPrompt bool
	Strict         bool
	Header         http.Header
	Body           []byte // the raw request body
}

// Message is one chat message of a request.
type Message struct {
	Role    string
	Content string
}

type wireRequest struct {
	Model               string        `json:"model"`
	Messages            []wireMessage `json:"messages"`
	Temperature         *float64      `json:"temperature"`
	MaxTokens           int           `json:"max_tokens"`
	MaxCompletionTokens int           `json:"max_completion_tokens"`
	Seed                *int64        `json:"seed"`
	User                string        `json:"user"`
	Stream              bool          `json:"stream"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
			Strict bool            `json:"strict"`
		} `json:"json_schema"`
	} `json:"response_format"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// text reads content given as a string or as a list of text parts.
func (m wireMessage) text() (string, error) {
	if len(m.Content) == 0 || string(m.Content) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(m.Content, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(m.Content, &parts); err != nil {
		return "", fmt.Errorf("message content is neither a string nor a list of parts: %w", err)
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}

// decodeRequest turns a wire request into a Request.
func decodeRequest(body []byte, h http.Header) (*Request, *wireRequest, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, nil, fmt.Errorf("decode request: %w", err)
	}
	r := &Request{Model: w.Model, Temperature: w.Temperature, MaxTokens: max(w.MaxTokens, w.MaxCompletionTokens),
		Seed: w.Seed, User: w.User, Stream: w.Stream, Header: h.Clone(), Body: body}
	for _, m := range w.Messages {
		text, err := m.text()
		if err != nil {
			return nil, nil, err
		}
		r.Messages = append(r.Messages, Message{Role: m.Role, Content: text})
	}
	if f := w.ResponseFormat; f != nil {
		r.Format = f.Type
		if s := f.JSONSchema; s != nil {
			r.SchemaName, r.Schema, r.Strict = s.Name, s.Schema, s.Strict
		}
	}
	if r.SchemaName == "" {
		r.SchemaName, r.Schema = schemaInPrompt(r.Messages)
		r.SchemaInPrompt = r.SchemaName != ""
	}
	return r, &w, nil
}

// schemaInPrompt finds a schema spelled out in a user message as
// `JSON schema "NAME":` and the schema on the next line.
func schemaInPrompt(msgs []Message) (string, json.RawMessage) {
	const marker = `JSON schema "`
	for i := len(msgs) - 1; i >= 0; i-- {
		_, rest, ok := strings.Cut(msgs[i].Content, marker)
		if !ok || msgs[i].Role != "user" {
			continue
		}
		name, rest, ok := strings.Cut(rest, "\":\n")
		if !ok {
			continue
		}
		var schema json.RawMessage
		if err := json.NewDecoder(strings.NewReader(rest)).Decode(&schema); err == nil {
			return name, schema
		}
	}
	return "", nil
}

// System returns the first system message.
func (r *Request) System() string {
	for _, m := range r.Messages {
		if m.Role == "system" {
			return m.Content
		}
	}
	return ""
}

// LastUser returns the last user message.
func (r *Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Repair reports whether the request re-asks after an earlier answer: it
// holds an assistant message.
func (r *Request) Repair() bool {
	return slices.ContainsFunc(r.Messages, func(m Message) bool { return m.Role == "assistant" })
}

// Persona returns who is asking: the request's "user" field, or else the
// name in a system prompt starting "You are NAME," or "You are NAME.".
func (r *Request) Persona() string {
	if r.User != "" {
		return r.User
	}
	s, ok := strings.CutPrefix(r.System(), "You are ")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(s, ",.\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// Candidates returns the candidate IDs of a vote schema: the enum of its
// ballot field, or the keys of a per-candidate object, in schema order.
func (r *Request) Candidates() []string {
	field, _ := ballotField(r.Schema)
	return field.candidates()
}
