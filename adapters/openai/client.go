package openai

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// Client is an agent.LLM for one endpoint. It is safe for concurrent use;
// share one Client among all agents that use the endpoint, so that its
// concurrency limit and rate budgets hold for all of them.
type Client struct {
	cfg    Config
	err    error // from Config.Validate, returned by every call
	api    *goopenai.Client
	tr     *transport
	now    func() time.Time
	log    *slog.Logger
	totals totals
	brk    *breaker
	// pinned is true when the config names the structured-output mode;
	// otherwise mode may fall back once from json_schema to json_object.
	pinned bool
	mode   atomic.Value // agent.OutputMode
}

var (
	_ agent.LLM         = (*Client)(nil)
	_ agent.OutputModer = (*Client)(nil)
	_ agent.Describer   = (*Client)(nil)
)

// Option changes how a Client works, mostly for tests.
type Option func(*options)

type options struct {
	doer   goopenai.HTTPDoer
	sleep  func(context.Context, time.Duration) error
	now    func() time.Time
	jitter func(int64) int64
	log    *slog.Logger
}

// WithHTTPDoer sends requests through d instead of a plain http.Client.
func WithHTTPDoer(d goopenai.HTTPDoer) Option { return func(o *options) { o.doer = d } }

// WithSleep replaces the wait between retries and for rate budgets; it
// must return ctx.Err() when ctx ends first. Tests pass one that records
// the durations and returns at once.
func WithSleep(f func(ctx context.Context, d time.Duration) error) Option {
	return func(o *options) { o.sleep = f }
}

// WithClock replaces the clock of the rate budgets and of Retry-After dates.
func WithClock(now func() time.Time) Option { return func(o *options) { o.now = now } }

// WithJitter replaces the random draw of backoff jitter: f(n) must return
// a value in [0, n).
func WithJitter(f func(n int64) int64) Option { return func(o *options) { o.jitter = f } }

// WithLogger logs retries to l (default: discard).
func WithLogger(l *slog.Logger) Option { return func(o *options) { o.log = l } }

// New returns a Client for cfg; it does no I/O. An invalid cfg (see
// Config.Validate) yields a Client whose every call fails with that error.
func New(cfg Config, opts ...Option) *Client {
	pinned := cfg.StructuredOutput != ""
	cfg = cfg.WithDefaults()
	o := options{doer: &http.Client{}, sleep: sleepCtx, now: time.Now, jitter: defaultJitter, log: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		opt(&o)
	}
	brk := newBreaker(cfg.BreakerFailures)
	tr := &transport{
		base: o.doer, cfg: cfg, sem: newSemaphore(cfg.MaxConcurrent), brk: brk,
		rpm: newBucket(cfg.RequestsPerMinute, o.now), tpm: newBucket(cfg.TokensPerMinute, o.now),
		sleep: o.sleep, now: o.now, jitter: o.jitter, log: o.log,
	}
	gc := goopenai.DefaultConfig(cfg.APIKey.Reveal())
	gc.BaseURL = cfg.BaseURL
	gc.HTTPClient = tr
	c := &Client{cfg: cfg, api: goopenai.NewClientWithConfig(gc), tr: tr, now: o.now, log: o.log, brk: brk, pinned: pinned}
	c.mode.Store(cfg.StructuredOutput)
	if err := cfg.Validate(); err != nil {
		c.err = fmt.Errorf("openai endpoint %q: invalid config: %w", cfg.Name, err)
	}
	return c
}

// Config returns the client's configuration, with defaults filled in.
func (c *Client) Config() Config { return c.cfg }

// OutputMode implements agent.OutputModer: the configured mode, or
// json_object after an unpinned json_schema was refused by the server.
func (c *Client) OutputMode() agent.OutputMode { return c.mode.Load().(agent.OutputMode) }

// Describe implements agent.Describer: the endpoint's name, model and
// default sampling (no temperature for a reasoning model, which is sent
// none).
func (c *Client) Describe() agent.Endpoint {
	e := agent.Endpoint{Name: c.cfg.Name, Model: c.cfg.Model, Temperature: c.cfg.Temperature, MaxTokens: c.cfg.MaxTokens}
	if reasoningModel(c.cfg.Model) {
		e.Temperature = nil
	}
	return e
}

// Done is closed when the endpoint's circuit breaker opens: the endpoint
// cannot serve this run, and every call fails at once. Err says why.
func (c *Client) Done() <-chan struct{} { return c.brk.done }

// Err is the message of the open circuit breaker: the endpoint, what went
// wrong and what to fix; nil while the breaker is closed.
func (c *Client) Err() error { return c.brk.open() }

// Complete implements agent.LLM.
func (c *Client) Complete(ctx context.Context, req agent.Request) (agent.Response, error) {
	start := time.Now()
	u := roundtable.Usage{Calls: 1}
	if c.err != nil {
		c.totals.add(u, true)
		return agent.Response{}, &agent.Error{Code: agent.CodeRejected, Usage: u, Err: c.err}
	}
	if err := c.brk.open(); err != nil {
		c.totals.add(u, true)
		return agent.Response{}, &agent.Error{Code: agent.CodeBroken, Usage: u, Err: err}
	}
	mode := req.Output
	if mode == "" {
		mode = c.OutputMode()
	}
	creq, zeroTemp := c.chatRequest(req, mode)
	cl := &call{tokens: estimateTokens(creq), zeroTemperature: zeroTemp}
	resp, err := c.api.CreateChatCompletion(withCall(ctx, cl), creq)
	u.Retries = int(cl.retries.Load())
	u.LatencyMS = time.Since(start).Milliseconds()
	if err != nil {
		c.totals.add(u, true)
		return agent.Response{}, c.failed(ctx, err, u, mode, cl)
	}
	c.brk.success()
	c.tr.retrying.Store(false)
	u.PromptTokens, u.CompletionTokens, u.Model = resp.Usage.PromptTokens, resp.Usage.CompletionTokens, resp.Model
	if d := resp.Usage.PromptTokensDetails; d != nil {
		u.CachedTokens = d.CachedTokens
	}
	c.tr.tpm.adjust(float64(u.PromptTokens+u.CompletionTokens) - cl.tokens)
	c.totals.add(u, false)
	if len(resp.Choices) == 0 {
		return agent.Response{}, &agent.Error{Code: agent.CodeUnavailable, Usage: u,
			Err: fmt.Errorf("openai endpoint %q: the answer has no choices", c.cfg.Name)}
	}
	return answer(resp.Choices[0], u), nil
}

// Usage is what a Client has spent since it was made.
type Usage struct {
	Calls, Failures                              int64
	PromptTokens, CompletionTokens, CachedTokens int64
	Retries                                      int64
	Cost                                         float64 // from the configured prices
}

// Usage returns the client's totals so far.
func (c *Client) Usage() Usage {
	u := c.totals.snapshot()
	u.Cost = float64(u.PromptTokens)/1000*c.cfg.PricePer1KPrompt + float64(u.CompletionTokens)/1000*c.cfg.PricePer1KCompletion
	return u
}

type totals struct {
	calls, failures, prompt, completion, cached, retries atomic.Int64
}

func (t *totals) add(u roundtable.Usage, failed bool) {
	t.calls.Add(int64(u.Calls))
	if failed {
		t.failures.Add(1)
	}
	t.prompt.Add(int64(u.PromptTokens))
	t.completion.Add(int64(u.CompletionTokens))
	t.cached.Add(int64(u.CachedTokens))
	t.retries.Add(int64(u.Retries))
}

func (t *totals) snapshot() Usage {
	return Usage{Calls: t.calls.Load(), Failures: t.failures.Load(), PromptTokens: t.prompt.Load(),
		CompletionTokens: t.completion.Load(), CachedTokens: t.cached.Load(), Retries: t.retries.Load()}
}
