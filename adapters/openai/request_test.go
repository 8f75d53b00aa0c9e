package openai_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

func ptr(f float64) *float64 { return &f }

// sent makes one request through a client for cfg and returns what the
// server received.
func sent(t *testing.T, cfg openai.Config, req agent.Request) *openaitest.Request {
	t.Helper()
	srv := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply {
		return openaitest.Content(`{"ok":true}`)
	})
	defer srv.Close()
	cfg.BaseURL = srv.URL()
	if cfg.Model == "" {
		cfg.Model = "fake-model"
	}
	if _, err := openai.New(cfg).Complete(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	return srv.Requests()[0]
}

// TestTemperatureZeroIsSentAsZero: go-openai omits a zero temperature
// (omitempty), so the client puts it back on the wire; unset sends none.
func TestTemperatureZeroIsSentAsZero(t *testing.T) {
	for _, c := range []struct {
		cfg, req *float64
		want     float64 // -1: absent
	}{
		{nil, nil, -1},
		{ptr(0), nil, 0},
		{nil, ptr(0), 0},
		{ptr(0.7), ptr(0), 0},
		{ptr(1.2), ptr(0.7), 0.7},
	} {
		r := sent(t, openai.Config{Temperature: c.cfg}, agent.Request{Messages: hello(), Temperature: c.req})
		got := r.Temperature
		switch {
		case c.want < 0 && got != nil:
			t.Errorf("cfg %v req %v: temperature %v sent, want none", c.cfg, c.req, *got)
		case c.want >= 0 && (got == nil || math.Abs(*got-c.want) > 1e-7):
			t.Errorf("cfg %v req %v: temperature %v, want %v", c.cfg, c.req, got, c.want)
		case c.want == 0 && !strings.Contains(string(r.Body), `"temperature":0,`):
			t.Errorf("body %s lacks an exact zero temperature", r.Body)
		}
	}
}

func TestReasoningModelsGetCompletionTokensAndNoTemperature(t *testing.T) {
	got := sent(t, openai.Config{Model: "o3-mini", Temperature: ptr(0.2), MaxTokens: 300}, agent.Request{Messages: hello()})
	var body map[string]any
	json.Unmarshal(got.Body, &body)
	if body["max_completion_tokens"] != 300.0 || body["max_tokens"] != nil || body["temperature"] != nil {
		t.Errorf("body %s", got.Body)
	}
}

func TestStructuredOutputModes(t *testing.T) {
	const empty = `{"type":"object","properties":{},"required":[],"additionalProperties":false}`
	schema := &agent.Schema{Name: "vote_plurality", JSON: json.RawMessage(empty)}
	for _, c := range []struct {
		cfg, req   agent.OutputMode
		wantFormat string
	}{
		{"", "", "json_schema"},
		{agent.OutputJSONObject, "", "json_object"},
		{agent.OutputNone, "", ""},
		{agent.OutputNone, agent.OutputJSONSchema, "json_schema"},
	} {
		got := sent(t, openai.Config{StructuredOutput: c.cfg}, agent.Request{Messages: hello(), Schema: schema, Output: c.req, Seed: 42, User: "Alice"})
		if got.Format != c.wantFormat {
			t.Errorf("cfg %q req %q: format %q, want %q", c.cfg, c.req, got.Format, c.wantFormat)
		}
		if c.wantFormat == "json_schema" && (got.SchemaName != "vote_plurality" || !got.Strict || string(got.Schema) != empty) {
			t.Errorf("schema %q strict %v %s", got.SchemaName, got.Strict, got.Schema)
		}
		if got.Seed == nil || *got.Seed != 42 || got.User != "Alice" {
			t.Errorf("seed %v user %q", got.Seed, got.User)
		}
	}
}

func TestUsageTotalsAndCost(t *testing.T) {
	srv := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply {
		return openaitest.Reply{Content: "{}", PromptTokens: 1000, CompletionTokens: 500}
	})
	defer srv.Close()
	c := openai.New(openai.Config{BaseURL: srv.URL(), Model: "m", PricePer1KPrompt: 0.15, PricePer1KCompletion: 0.6})
	for range 2 {
		resp, err := c.Complete(context.Background(), agent.Request{Messages: hello()})
		if err != nil || resp.Usage.Calls != 1 || resp.Usage.PromptTokens != 1000 {
			t.Fatalf("%+v %v", resp, err)
		}
	}
	u := c.Usage()
	if u.Calls != 2 || u.PromptTokens != 2000 || u.CompletionTokens != 1000 || math.Abs(u.Cost-0.9) > 1e-9 {
		t.Errorf("usage %+v, want 2 calls costing 0.9", u)
	}
	if c.OutputMode() != agent.OutputJSONSchema {
		t.Errorf("output mode %q", c.OutputMode())
	}
}

func TestInvalidConfigFailsEveryCall(t *testing.T) {
	c := openai.New(openai.Config{BaseURL: "ftp://x"})
	_, err := c.Complete(context.Background(), agent.Request{Messages: hello()})
	if e, ok := err.(*agent.Error); !ok || e.Code != agent.CodeRejected {
		t.Fatalf("err %v, want a rejected config error", err)
	}
}

func hello() []agent.ChatMessage {
	return []agent.ChatMessage{{Role: agent.RoleUser, Content: "hello"}}
}

// TestModelAskedAndAnswered: a request's model replaces the endpoint's on
// the wire, the model the server says answered is the usage's (another
// than the one asked, as a server that maps an alias to a dated version
// answers), and Describe tells what the endpoint asks by default.
func TestModelAskedAndAnswered(t *testing.T) {
	srv := openaitest.NewServer(openaitest.AnsweredBy("m-2025-06-01", func(context.Context, *openaitest.Request) openaitest.Reply {
		return openaitest.Content(`{"ok":true}`)
	}))
	defer srv.Close()
	c := openai.New(openai.Config{Name: "lab", BaseURL: srv.URL(), Model: "m", Temperature: ptr(0.3), MaxTokens: 99})
	for _, asked := range []string{"", "m-large"} {
		resp, err := c.Complete(context.Background(), agent.Request{Messages: hello(), Model: asked})
		if err != nil {
			t.Fatal(err)
		}
		want := asked
		if want == "" {
			want = "m"
		}
		if got := srv.Requests()[len(srv.Requests())-1].Model; got != want {
			t.Errorf("asked %q: %q sent, want %q", asked, got, want)
		}
		if resp.Usage.Model != "m-2025-06-01" {
			t.Errorf("asked %q: usage says %q answered, want the server's m-2025-06-01", asked, resp.Usage.Model)
		}
	}
	if d := c.Describe(); d.Name != "lab" || d.Model != "m" || *d.Temperature != 0.3 || d.MaxTokens != 99 {
		t.Errorf("Describe: %+v", d)
	}
	if d := openai.New(openai.Config{Name: "r", BaseURL: srv.URL(), Model: "o3-mini", Temperature: ptr(0.3)}).Describe(); d.Temperature != nil {
		t.Errorf("a reasoning model is sent no temperature, but Describe says %v", *d.Temperature)
	}
}
