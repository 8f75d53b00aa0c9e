package openaitest_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
)

func TestStreamingAnswer(t *testing.T) {
	srv := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply {
		return openaitest.Reply{Content: "streamed", PromptTokens: 3, CompletionTokens: 1}
	})
	defer srv.Close()
	cfg := goopenai.DefaultConfig("k")
	cfg.BaseURL = srv.URL()
	stream, err := goopenai.NewClientWithConfig(cfg).CreateChatCompletionStream(context.Background(), goopenai.ChatCompletionRequest{
		Model: "m", Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "hi"}},
		StreamOptions: &goopenai.StreamOptions{IncludeUsage: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var text strings.Builder
	usage := 0
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range chunk.Choices {
			text.WriteString(c.Delta.Content)
		}
		if chunk.Usage != nil {
			usage = chunk.Usage.TotalTokens
		}
	}
	if text.String() != "streamed" || usage != 4 {
		t.Errorf("got %q with %d tokens", text.String(), usage)
	}
}

func TestInjectCountsFaultsAndRoutes(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle, openaitest.Fault{
		Match: openaitest.Persona("Bob"), Times: 2, Reply: openaitest.Always(openaitest.Status(503, "busy")),
	})
	srv := openaitest.NewServer(h)
	defer srv.Close()
	cfg := goopenai.DefaultConfig("")
	cfg.BaseURL = srv.URL()
	c := goopenai.NewClientWithConfig(cfg)
	statuses := []int{}
	for range 3 {
		_, err := c.CreateChatCompletion(context.Background(), goopenai.ChatCompletionRequest{Model: "m", User: "Bob",
			Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "hi"}}})
		var apiErr *goopenai.APIError
		if errors.As(err, &apiErr) {
			statuses = append(statuses, apiErr.HTTPStatusCode)
		} else if err != nil {
			t.Fatal(err)
		} else {
			statuses = append(statuses, 200)
		}
	}
	if len(statuses) != 3 || statuses[0] != 503 || statuses[1] != 503 || statuses[2] != 200 {
		t.Errorf("statuses %v, want 503 503 200", statuses)
	}
	if srv.Count(openaitest.Persona("Bob")) != 3 {
		t.Errorf("count %d", srv.Count(nil))
	}
}

func TestInstanceSatisfiesSimpleSchemas(t *testing.T) {
	got, _ := jsonString(openaitest.Instance([]byte(`{"type":"object","properties":{"b":{"type":"integer","minimum":2},"a":{"type":"array","items":{"type":"string"},"minItems":1},"e":{"enum":["x","y"]}}}`)))
	if got != `{"b":2,"a":["x"],"e":"x"}` {
		t.Errorf("instance %s", got)
	}
}

// TestScriptedEndpointFailuresOnTheWire: go-openai reads each scripted
// case as a real endpoint's answer.
func TestScriptedEndpointFailuresOnTheWire(t *testing.T) {
	ask := func(rep openaitest.Reply) (goopenai.ChatCompletionResponse, error) {
		srv := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply { return rep })
		defer srv.Close()
		cfg := goopenai.DefaultConfig("k")
		cfg.BaseURL = srv.URL()
		return goopenai.NewClientWithConfig(cfg).CreateChatCompletion(context.Background(), goopenai.ChatCompletionRequest{
			Model: "m", Messages: []goopenai.ChatCompletionMessage{{Role: "user", Content: "hi"}}})
	}
	if r, err := ask(openaitest.Truncated(`{"a":`)); err != nil || r.Choices[0].FinishReason != goopenai.FinishReasonLength {
		t.Errorf("truncated: %+v %v", r, err)
	}
	if r, err := ask(openaitest.Refused("no")); err != nil || r.Choices[0].Message.Refusal != "no" || r.Choices[0].Message.Content != "" {
		t.Errorf("refused: %+v %v", r, err)
	}
	for _, c := range []struct {
		rep    openaitest.Reply
		status int
		code   string
	}{
		{openaitest.InsufficientQuota(), 429, "insufficient_quota"},
		{openaitest.ModelNotFound("m"), 404, "model_not_found"},
		{openaitest.Unauthorized(), 401, "invalid_api_key"},
	} {
		_, err := ask(c.rep)
		e := (*goopenai.APIError)(nil)
		if !errors.As(err, &e) || e.HTTPStatusCode != c.status || e.Code != c.code {
			t.Errorf("%d %s: got %v", c.status, c.code, err)
		}
	}
	if _, err := ask(openaitest.Drop()); err == nil || errors.As(err, new(*goopenai.APIError)) {
		t.Errorf("drop: %v, want a transport error", err)
	}
}
