package openai

import (
	"context"
	"fmt"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// answer reads a choice: its content, and why the model stopped.
func answer(ch goopenai.ChatCompletionChoice, u roundtable.Usage) agent.Response {
	r := agent.Response{Content: ch.Message.Content, Usage: u, Finish: agent.FinishStop}
	switch {
	case ch.Message.Refusal != "":
		r.Finish, r.Refusal = agent.FinishRefusal, ch.Message.Refusal
	case ch.FinishReason == goopenai.FinishReasonContentFilter:
		r.Finish, r.Refusal = agent.FinishRefusal, "the provider's content filter stopped the answer"
	case ch.FinishReason == goopenai.FinishReasonLength:
		r.Finish = agent.FinishLength
	}
	return r
}

// failed turns a failed call into the error Complete returns. It falls
// back once from json_schema to json_object when the server refuses the
// schema and the mode is not pinned (CodeOutputMode: ask again), opens
// the breaker on answers no retry can change and on the threshold of
// calls in a row that found no server (CodeBroken), and otherwise wraps
// the error with its code.
func (c *Client) failed(ctx context.Context, err error, u roundtable.Usage, mode agent.OutputMode) error {
	werr := c.wrap(ctx, err, u)
	if ctx.Err() != nil {
		return werr
	}
	if mode == agent.OutputJSONSchema && !c.pinned && schemaRefused(err) {
		if c.mode.CompareAndSwap(agent.OutputJSONSchema, agent.OutputJSONObject) {
			c.log.Warn("openai: the server refuses json_schema structured output; using json_object from now on (set structured_output to pin a mode)",
				"endpoint", c.cfg.Name, "err", werr)
		}
		return &agent.Error{Code: agent.CodeOutputMode, Usage: u, Err: werr}
	}
	if what, ok := c.fatal(err, mode); ok {
		return c.broken(c.brokenError(what, err), u)
	}
	// No answer: no server, 5xx after every retry, or every attempt timed
	// out while the caller still waited (a hung server).
	if code := werr.(*agent.Error).Code; code == agent.CodeUnavailable || code == agent.CodeTimeout {
		what := fmt.Sprintf("%d calls in a row could not get an answer from the server, each after %d retries; check that it is running and that base_url is right",
			max(c.cfg.BreakerFailures, 1), max(c.cfg.MaxRetries, 0))
		if c.brk.unavailable(c.brokenError(what, err)) {
			c.log.Info("openai: endpoint is unavailable; stopping", "endpoint", c.cfg.Name, "err", c.brk.open())
			return &agent.Error{Code: agent.CodeBroken, Usage: u, Err: c.brk.open()}
		}
	}
	return werr
}

// broken opens the breaker with err (logging it once) and returns the
// breaker's error, which is err unless another call opened it first.
func (c *Client) broken(err error, u roundtable.Usage) error {
	if c.brk.trip(err) {
		c.log.Info("openai: endpoint cannot serve this run; stopping", "endpoint", c.cfg.Name, "err", err)
	}
	return &agent.Error{Code: agent.CodeBroken, Usage: u, Err: c.brk.open()}
}
