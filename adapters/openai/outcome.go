package openai

import (
	"context"
	"errors"
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
func (c *Client) failed(ctx context.Context, err error, u roundtable.Usage, mode agent.OutputMode, cl *call) error {
	werr := c.wrap(ctx, err, u)
	if ctx.Err() != nil {
		// The caller's deadline passed (a phase's timeout, shorter than
		// the attempt's): a server that had the request and said nothing
		// counts as not answering, however the wait ended. A cancelled
		// call (a stopped table, a shutdown) does not.
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && cl.sent.Load() && !cl.answered.Load() {
			if broken := c.unanswered(err, u); broken != nil {
				return broken
			}
		}
		return werr
	}
	if mode == agent.OutputJSONSchema && !c.pinned && schemaRefused(err) {
		if c.mode.CompareAndSwap(agent.OutputJSONSchema, agent.OutputJSONObject) {
			why := "refuses json_schema structured output"
			if schemaInvalid(err) {
				why = "refuses a schema as invalid for strict json_schema structured output"
			}
			c.log.Warn("openai: the server "+why+"; using json_object from now on (set structured_output to pin a mode)",
				"endpoint", c.cfg.Name, "err", werr)
		}
		return &agent.Error{Code: agent.CodeOutputMode, Usage: u, Err: werr}
	}
	if what, ok := c.fatal(err, mode); ok {
		return c.broken(c.brokenError(what, err), u)
	}
	// No answer: no server, 5xx after every retry, or an attempt timed
	// out while the caller still waited (a hung server).
	if code := werr.(*agent.Error).Code; code == agent.CodeUnavailable || code == agent.CodeTimeout {
		if broken := c.unanswered(err, u); broken != nil {
			return broken
		}
	}
	return werr
}

// unanswered counts a call the server did not answer; it returns the
// breaker's error when that opened it (or it was open), nil otherwise.
func (c *Client) unanswered(err error, u roundtable.Usage) error {
	what := fmt.Sprintf("%d calls in a row got no answer from the server (no server, 5xx after %d retries, or nothing within the %s timeout); check that it is running and that base_url is right, or raise timeout for a slow model",
		max(c.cfg.BreakerFailures, 1), max(c.cfg.MaxRetries, 0), c.cfg.Timeout)
	if c.brk.unavailable(c.brokenError(what, err)) {
		c.log.Info("openai: endpoint is unavailable; stopping", "endpoint", c.cfg.Name, "err", c.brk.open())
	}
	if open := c.brk.open(); open != nil {
		return &agent.Error{Code: agent.CodeBroken, Usage: u, Err: open}
	}
	return nil
}

// broken opens the breaker with err (logging it once) and returns the
// breaker's error, which is err unless another call opened it first.
func (c *Client) broken(err error, u roundtable.Usage) error {
	if c.brk.trip(err) {
		c.log.Info("openai: endpoint cannot serve this run; stopping", "endpoint", c.cfg.Name, "err", err)
	}
	return &agent.Error{Code: agent.CodeBroken, Usage: u, Err: c.brk.open()}
}
