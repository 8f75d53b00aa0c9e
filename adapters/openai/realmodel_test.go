package openai_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// quickClient is a client of srv that logs to logs and skips its waits.
func quickClient(srv *openaitest.Server, logs *syncBuffer, edit func(*openai.Config)) *openai.Client {
	cfg := openai.Config{Name: "fake", BaseURL: srv.URL(), Model: "fake-model", APIKey: testKey, MaxRetries: 2}
	if edit != nil {
		edit(&cfg)
	}
	return openai.New(cfg, openai.WithSleep(func(ctx context.Context, _ time.Duration) error { return ctx.Err() }),
		openai.WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
}

func code(err error) agent.Code {
	e := (*agent.Error)(nil)
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func closed(c *openai.Client) bool {
	select {
	case <-c.Done():
		return true
	default:
		return false
	}
}

func TestDeadEndpointOpensTheBreakerWithOneMessage(t *testing.T) {
	srv := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply { return openaitest.Drop() })
	defer srv.Close()
	var logs syncBuffer
	c := quickClient(srv, &logs, nil)
	var got []agent.Code
	for range 5 {
		_, err := c.Complete(context.Background(), agent.Request{Messages: hello()})
		got = append(got, code(err))
	}
	want := []agent.Code{agent.CodeUnavailable, agent.CodeUnavailable, agent.CodeBroken, agent.CodeBroken, agent.CodeBroken}
	if strings.Join(codes(got), ",") != strings.Join(codes(want), ",") {
		t.Fatalf("codes %v, want %v", got, want)
	}
	if n := srv.Count(nil); n != 9 {
		t.Errorf("%d requests, want 9 (3 calls of 3 attempts; none once the breaker is open)", n)
	}
	msg := c.Err().Error()
	for _, want := range []string{`openai endpoint "fake"`, srv.URL(), "3 calls in a row", "check that it is running"} {
		if !strings.Contains(msg, want) {
			t.Errorf("breaker message %q lacks %q", msg, want)
		}
	}
	if !closed(c) {
		t.Error("Done is not closed")
	}
	if n := strings.Count(logs.String(), "stopping"); n != 1 {
		t.Errorf("%d stop messages in the log, want 1:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), "openai: retrying"); n != 6 {
		t.Errorf("%d retries logged, want 6:\n%s", n, logs.String())
	}
	if n := strings.Count(logs.String(), "level=WARN msg=\"openai: retrying\""); n != 1 {
		t.Errorf("%d retry warnings, want 1 (the rest of the streak at debug level):\n%s", n, logs.String())
	}
}

func TestAnswersNoRetryCanFixStopAtOnce(t *testing.T) {
	for name, c := range map[string]struct {
		reply openaitest.Reply
		fix   string
	}{
		"401":                {openaitest.Unauthorized(), "check api_key_env"},
		"403":                {openaitest.Status(403, "forbidden"), "check api_key_env"},
		"404 model":          {openaitest.ModelNotFound("fake-model"), `no model "fake-model"`},
		"insufficient_quota": {openaitest.InsufficientQuota(), "no quota left"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply { return c.reply })
			defer srv.Close()
			var logs syncBuffer
			cl := quickClient(srv, &logs, nil)
			_, err := cl.Complete(context.Background(), agent.Request{Messages: hello()})
			if code(err) != agent.CodeBroken || !closed(cl) {
				t.Fatalf("err %v, want the breaker open", err)
			}
			if n := srv.Count(nil); n != 1 {
				t.Errorf("%d attempts, want 1 (no retry)", n)
			}
			if strings.Contains(logs.String(), "retrying") {
				t.Errorf("a retry is announced where none is made:\n%s", logs.String())
			}
			if msg := cl.Err().Error(); !strings.Contains(msg, c.fix) || !strings.Contains(msg, `"fake"`) || strings.Contains(msg, testKey) {
				t.Errorf("message %q: want the endpoint and %q, without the key", msg, c.fix)
			}
			if _, err := cl.Complete(context.Background(), agent.Request{Messages: hello()}); code(err) != agent.CodeBroken || srv.Count(nil) != 1 {
				t.Errorf("second call: %v after %d requests; want a broken error and no request", err, srv.Count(nil))
			}
		})
	}
}

func TestRateLimitIsStillRetried(t *testing.T) {
	srv := openaitest.NewServer(openaitest.Inject(openaitest.Responder{}.Handle,
		openaitest.Fault{Times: 2, Reply: openaitest.Always(openaitest.RateLimited(""))}))
	defer srv.Close()
	var logs syncBuffer
	c := quickClient(srv, &logs, nil)
	if _, err := c.Complete(context.Background(), agent.Request{Messages: hello()}); err != nil || closed(c) {
		t.Fatalf("err %v; want success after two rate limits", err)
	}
}

func TestCutOffAndRefusedAnswersAreReportedAsSuch(t *testing.T) {
	h := openaitest.Inject(openaitest.Responder{}.Handle,
		openaitest.Fault{Match: openaitest.All(openaitest.Persona("Alice"), openaitest.Schema("proposal"), openaitest.Contains("Round 2 of 3")),
			Reply: openaitest.Always(openaitest.Truncated(`{"reasoning":"Let me think about this at len`))},
		openaitest.Fault{Match: openaitest.All(openaitest.Persona("Bob"), openaitest.Schema("vote_plurality"), openaitest.Contains("Round 3 of 3")),
			Reply: openaitest.Always(openaitest.Refused("I can't help with that."))},
	)
	r := table(t, vote.Plurality, 0, agent.Options{}, h)
	r.check(t, "2/alice/proposal/length", "3/bob/vote/refusal")
	if n := r.srv.Count(openaitest.Repair); n != 0 {
		t.Errorf("%d re-asks, want none: a cut-off or a refusal is not a format error", n)
	}
	if len(agent.FormatErrors(r.state)) != 0 {
		t.Errorf("format errors %+v, want none", agent.FormatErrors(r.state))
	}
	if !hasEvent(r.events, "action_failed", "raise max_tokens") || !hasEvent(r.events, "action_failed", "I can't help with that.") {
		t.Error("the log does not say why the actions failed")
	}
}

func TestRefusedJSONSchemaFallsBackOnceToJSONObject(t *testing.T) {
	r := table(t, vote.Rated, 0, agent.Options{}, openaitest.NoJSONSchema(openaitest.Responder{}.Handle))
	r.check(t)
	if n := strings.Count(r.log, "using json_object from now on"); n != 1 {
		t.Errorf("%d downgrade messages, want 1:\n%s", n, r.log)
	}
	if got := r.client.OutputMode(); got != agent.OutputJSONObject {
		t.Errorf("mode %q after the fallback", got)
	}
	refused := r.srv.Count(func(q *openaitest.Request) bool { return q.Format == "json_schema" })
	if refused < 1 || refused > 3 {
		t.Errorf("%d json_schema requests, want 1..3 (only those in flight when the first was refused)", refused)
	}
	last := r.srv.Requests()[r.srv.Count(nil)-1]
	if last.Format != "json_object" || !last.SchemaInPrompt {
		t.Errorf("last request format %q, schema in prompt %v; want json_object with the schema spelled out", last.Format, last.SchemaInPrompt)
	}
}

func TestPinnedJSONSchemaRefusedStopsTheRun(t *testing.T) {
	srv := openaitest.NewServer(openaitest.NoJSONSchema(openaitest.Responder{}.Handle))
	defer srv.Close()
	var logs syncBuffer
	c := quickClient(srv, &logs, func(c *openai.Config) { c.StructuredOutput = agent.OutputJSONSchema })
	schema := &agent.Schema{Name: "message", JSON: []byte(`{"type":"object"}`)}
	_, err := c.Complete(context.Background(), agent.Request{Messages: hello(), Schema: schema})
	if code(err) != agent.CodeBroken || !strings.Contains(c.Err().Error(), `structured_output = "json_object"`) {
		t.Fatalf("err %v; want the breaker open, saying to set structured_output", err)
	}
}

func codes(cs []agent.Code) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// TestInvalidSchemaFallsBackToJSONObject: a server that refuses a schema
// as invalid for strict structured output (the fake refuses what OpenAI
// refuses: here an object without additionalProperties) is handled as
// one that refuses json_schema: the client falls back to json_object,
// once, and the request asked again that way is answered; pinned to
// json_schema, the endpoint cannot serve, and the breaker says so.
func TestInvalidSchemaFallsBackToJSONObject(t *testing.T) {
	invalid := &agent.Schema{Name: "message", JSON: []byte(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)}
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	var logs syncBuffer
	c := quickClient(srv, &logs, nil)
	_, err := c.Complete(context.Background(), agent.Request{Messages: hello(), Schema: invalid})
	if code(err) != agent.CodeOutputMode || c.OutputMode() != agent.OutputJSONObject || closed(c) {
		t.Fatalf("err %v, mode %s, breaker open %v; want output_mode and a fallback to json_object", err, c.OutputMode(), closed(c))
	}
	if _, err := c.Complete(context.Background(), agent.Request{Messages: hello(), Schema: invalid}); err != nil {
		t.Fatalf("asked again in json_object: %v", err)
	}
	if last := srv.Requests()[srv.Count(nil)-1]; last.Format != "json_object" {
		t.Errorf("the second request asked for %q, want json_object", last.Format)
	}
	if n := strings.Count(logs.String(), "refuses a schema as invalid for strict json_schema structured output; using json_object from now on"); n != 1 {
		t.Errorf("%d fallback messages, want 1:\n%s", n, logs.String())
	}

	pinned := quickClient(srv, &logs, func(c *openai.Config) { c.StructuredOutput = agent.OutputJSONSchema })
	_, err = pinned.Complete(context.Background(), agent.Request{Messages: hello(), Schema: invalid})
	if code(err) != agent.CodeBroken || !strings.Contains(pinned.Err().Error(), "refuses a schema as invalid") {
		t.Errorf("pinned: err %v; want the breaker open, naming the invalid schema", err)
	}
}
