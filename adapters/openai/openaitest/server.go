package openaitest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"
)

// Server is a fake OpenAI-compatible endpoint on 127.0.0.1. It speaks the
// wire format of POST /v1/chat/completions (plain JSON, or server-sent
// events when "stream" is true), GET /v1/models and POST /v1/embeddings
// (see SetEmbed), and answers as its Handler says. It records every chat
// request.
type Server struct {
	srv     *httptest.Server
	h       Handler
	closing chan struct{}
	once    sync.Once

	mu      sync.Mutex
	reqs    []*Request
	embeds  []EmbedRequest // see embeddings.go
	embedFn EmbedFunc
}

// NewServer starts a server answering with h; nil h plays Responder{}.
func NewServer(h Handler) *Server {
	if h == nil {
		h = Responder{}.Handle
	}
	s := &Server{h: h, closing: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, Reply{Status: http.StatusNotFound, Message: "no route for " + r.Method + " " + r.URL.Path})
	})
	s.srv = httptest.NewServer(mux)
	return s
}

// URL is the base URL for clients, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close releases hanging requests and shuts the server down.
func (s *Server) Close() {
	s.once.Do(func() { close(s.closing) })
	s.srv.Close()
}

// Requests returns the chat requests received so far, in arrival order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// Count returns how many requests match m (all of them for nil m).
func (s *Server) Count(m func(*Request) bool) int {
	n := 0
	for _, r := range s.Requests() {
		if m == nil || m(r) {
			n++
		}
	}
	return n
}

func (s *Server) record(r *Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.N = len(s.reqs) + 1
	s.reqs = append(s.reqs, r)
}

func (s *Server) chat(w http.ResponseWriter, hr *http.Request) {
	body, err := io.ReadAll(hr.Body)
	if err != nil {
		writeError(w, Status(http.StatusBadRequest, "read body: "+err.Error()))
		return
	}
	r, wire, err := decodeRequest(body, hr.Header)
	if err != nil {
		writeError(w, Status(http.StatusBadRequest, err.Error()))
		return
	}
	s.record(r)
	if r.Format == "json_schema" && r.Strict {
		if err := CheckStrict(r.SchemaName, r.Schema); err != nil {
			writeError(w, Reply{Status: http.StatusBadRequest, Message: err.Error(), Type: "invalid_request_error", Param: "response_format"})
			return
		}
	}
	rep := s.h(hr.Context(), r)
	switch {
	case rep.Drop:
		drop(w)
	case rep.Hang:
		select {
		case <-hr.Context().Done():
		case <-s.closing:
		}
	case rep.Status != 0 && rep.Status != http.StatusOK:
		writeError(w, rep)
	case r.Stream:
		writeStream(w, r, rep, wire.StreamOptions != nil && wire.StreamOptions.IncludeUsage)
	default:
		writeJSON(w, http.StatusOK, completion(r, rep))
	}
}

func (s *Server) models(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": []map[string]any{
		{"id": "fake-model", "object": "model", "created": 0, "owned_by": "openaitest"}}})
}

// completion is the body of a non-streamed answer.
func completion(r *Request, rep Reply) map[string]any {
	return map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", r.N), "object": "chat.completion", "created": time.Now().Unix(), "model": answeredModel(r, rep),
		"choices": []map[string]any{{"index": 0, "finish_reason": finishReason(rep), "message": message(rep)}},
		"usage":   usage(r, rep),
	}
}

// answeredModel is the model an answer names: the reply's, else the one
// asked for.
func answeredModel(r *Request, rep Reply) string {
	if rep.Model != "" {
		return rep.Model
	}
	return r.Model
}

func finishReason(rep Reply) string {
	if rep.FinishReason == "" {
		return "stop"
	}
	return rep.FinishReason
}

func message(rep Reply) map[string]any {
	m := map[string]any{"role": "assistant", "content": rep.Content}
	if rep.Refusal != "" {
		m["content"], m["refusal"] = nil, rep.Refusal
	}
	return m
}

// drop closes the connection under the handler without a response.
func drop(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

func usage(r *Request, rep Reply) map[string]int {
	p, c := rep.PromptTokens, rep.CompletionTokens
	if p == 0 {
		for _, m := range r.Messages {
			p += len(m.Content)/4 + 1
		}
	}
	if c == 0 {
		c = len(rep.Content)/4 + 1
	}
	return map[string]int{"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}
}

// writeStream sends the answer as server-sent events: the content in one
// chunk, a final chunk, optionally a usage chunk, then [DONE].
func writeStream(w http.ResponseWriter, r *Request, rep Reply, withUsage bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	flusher, _ := w.(http.Flusher)
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	chunk := func(choices []map[string]any) map[string]any {
		return map[string]any{"id": fmt.Sprintf("chatcmpl-%d", r.N), "object": "chat.completion.chunk",
			"created": time.Now().Unix(), "model": answeredModel(r, rep), "choices": choices}
	}
	send(chunk([]map[string]any{{"index": 0, "delta": map[string]any{"role": "assistant", "content": rep.Content}}}))
	send(chunk([]map[string]any{{"index": 0, "delta": map[string]any{}, "finish_reason": finishReason(rep)}}))
	if withUsage {
		c := chunk([]map[string]any{})
		c["usage"] = usage(r, rep)
		send(c)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func writeError(w http.ResponseWriter, rep Reply) {
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	if rep.Body != "" {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(rep.Status)
		io.WriteString(w, rep.Body)
		return
	}
	typ := "server_error"
	code := any(nil)
	switch {
	case rep.Status == http.StatusTooManyRequests:
		typ, code = "requests", "rate_limit_exceeded"
	case rep.Status < 500:
		typ = "invalid_request_error"
	}
	if rep.Code != "" {
		code = rep.Code
	}
	if rep.Type != "" {
		typ = rep.Type
	}
	param := any(nil)
	if rep.Param != "" {
		param = rep.Param
	}
	writeJSON(w, rep.Status, map[string]any{"error": map[string]any{
		"message": rep.Message, "type": typ, "param": param, "code": code}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// Delay answers as next does, after a real latency d; a request that ends
// first gets no answer. It is meant for benchmarks: tests should script
// slowness with Hang, which needs no clock.
func Delay(next Handler, d time.Duration) Handler {
	return func(ctx context.Context, r *Request) Reply {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
			return next(ctx, r)
		case <-ctx.Done():
			return Hang()
		}
	}
}
