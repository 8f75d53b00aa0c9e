package label_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

// script answers label requests from queues: the first ask draws from
// first, a re-ask (whose schema allows fewer labels) from reask. Answers
// are handed out in arrival order; concurrent samples may take them in
// any order, but the votes are the same.
type script struct {
	mu           sync.Mutex
	first, reask []string
	all          int // how many labels the first ask allows
}

func (s *script) handle(_ context.Context, r *openaitest.Request) openaitest.Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := &s.first
	if n := len(enum(r)); n < s.all {
		q = &s.reask
	}
	if len(*q) == 0 {
		return openaitest.Status(500, "script exhausted")
	}
	ans := (*q)[0]
	*q = (*q)[1:]
	return openaitest.JSON(map[string]any{"reasoning": "scripted", "label": ans})
}

// enum returns the labels a request's schema allows.
func enum(r *openaitest.Request) []string {
	var s struct {
		Properties map[string]struct {
			Enum  []string `json:"enum"`
			Items struct {
				Enum []string `json:"enum"`
			} `json:"items"`
		} `json:"properties"`
	}
	json.Unmarshal(r.Schema, &s)
	if p, ok := s.Properties["label"]; ok {
		return p.Enum
	}
	return s.Properties["labels"].Items.Enum
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func concat(xs ...[]string) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x...)
	}
	return out
}

// client is the real OpenAI client against srv, retrying nothing.
func client(srv *openaitest.Server, name string) *openai.Client {
	return openai.New(openai.Config{Name: name, BaseURL: srv.URL(), Model: name, MaxRetries: -1})
}

func newServer(t *testing.T, h openaitest.Handler) *openaitest.Server {
	srv := openaitest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// between returns the text of s between before and after.
func between(s, before, after string) string {
	_, rest, _ := strings.Cut(s, before)
	v, _, _ := strings.Cut(rest, after)
	return v
}
