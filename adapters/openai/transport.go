package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	goopenai "github.com/sashabaranov/go-openai"
)

// call is what Complete tells the transport about a request, through the
// request's context: the tokens to charge per attempt, and a counter of
// retries for the usage report. The transport tells back whether an
// attempt went out and whether any got an answer (a status), so that a
// call cut by its caller's deadline while the server was silent counts
// as one the server did not answer.
type call struct {
	tokens   float64
	retries  atomic.Int32
	sent     atomic.Bool
	answered atomic.Bool
	// zeroTemperature asks for "temperature": 0 in the body, which
	// go-openai omits (its field is a float32 with omitempty).
	zeroTemperature bool
}

type callKey struct{}

func withCall(ctx context.Context, c *call) context.Context {
	return context.WithValue(ctx, callKey{}, c)
}

func callFrom(ctx context.Context) *call {
	if c, ok := ctx.Value(callKey{}).(*call); ok {
		return c
	}
	return &call{}
}

// transport is the HTTPDoer go-openai sends through. Per attempt it waits
// for the rate budgets and a concurrency slot, and bounds the attempt with
// the configured timeout; it retries what may succeed on another try.
type transport struct {
	base     goopenai.HTTPDoer
	cfg      Config
	sem      semaphore
	rpm, tpm *bucket
	sleep    func(context.Context, time.Duration) error
	now      func() time.Time
	jitter   func(int64) int64
	log      *slog.Logger
	brk      *breaker
	// retrying is set by the first retry after a success: that retry is
	// logged as a warning, the rest of the streak at debug level, so a
	// dead endpoint does not flood the log (Client.Complete clears it).
	retrying atomic.Bool
}

// Do implements goopenai.HTTPDoer.
func (t *transport) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	c := callFrom(ctx)
	if c.zeroTemperature {
		if err := setZeroTemperature(req); err != nil {
			return nil, err
		}
	}
	for n := 0; ; n++ {
		resp, err := t.attempt(ctx, req, n, c)
		wait, why, retry := t.retryWait(ctx, req, n, resp, err)
		if !retry {
			return resp, err
		}
		discard(resp)
		c.retries.Add(1)
		level := slog.LevelDebug
		if t.retrying.CompareAndSwap(false, true) {
			level = slog.LevelWarn
		}
		t.log.Log(ctx, level, "openai: retrying", "endpoint", t.cfg.Name, "attempt", n+1, "reason", why, "wait", wait)
		if err := t.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("wait to retry after %s: %w", why, err)
		}
	}
}

// attempt sends the request once. The concurrency slot and the attempt's
// timeout last until the response body is closed.
func (t *transport) attempt(ctx context.Context, req *http.Request, n int, c *call) (*http.Response, error) {
	if err := t.rpm.wait(ctx, 1, t.budgetSleep("requests_per_minute")); err != nil {
		return nil, fmt.Errorf("wait for the request budget: %w", err)
	}
	if err := t.tpm.wait(ctx, c.tokens, t.budgetSleep("tokens_per_minute")); err != nil {
		return nil, fmt.Errorf("wait for the token budget: %w", err)
	}
	if err := t.sem.acquire(ctx); err != nil {
		return nil, fmt.Errorf("wait for a free connection slot: %w", err)
	}
	actx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	done := sync.OnceFunc(func() { cancel(); t.sem.release() })
	r := req.Clone(actx)
	if n > 0 && req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			done()
			return nil, fmt.Errorf("rebuild request body: %w", err)
		}
		r.Body = body
	}
	c.sent.Store(true)
	resp, err := t.base.Do(r)
	if err != nil {
		done()
		return nil, err
	}
	c.answered.Store(true)
	resp.Body = &releasingBody{ReadCloser: resp.Body, done: done}
	return resp, nil
}

// budgetSleep is the transport's sleep, logging (at info level) the wait
// for the named budget first.
func (t *transport) budgetSleep(budget string) func(context.Context, time.Duration) error {
	return func(ctx context.Context, d time.Duration) error {
		t.log.Info("openai: waiting for the rate budget", "endpoint", t.cfg.Name, "budget", budget, "wait", d)
		return t.sleep(ctx, d)
	}
}

// retryWait decides whether to retry after attempt n and how long to wait.
// An attempt that timed out is not retried (see Config.Timeout).
func (t *transport) retryWait(ctx context.Context, req *http.Request, n int, resp *http.Response, err error) (time.Duration, string, bool) {
	if n >= max(t.cfg.MaxRetries, 0) || ctx.Err() != nil || (req.Body != nil && req.GetBody == nil) || t.brk.open() != nil {
		return 0, "", false
	}
	if err != nil && timedOut(err) {
		return 0, "", false
	}
	if err != nil {
		return backoff(t.cfg.BackoffBase, t.cfg.BackoffMax, n, t.jitter), err.Error(), true
	}
	if !retryable(resp.StatusCode) || outOfQuota(resp) {
		return 0, "", false
	}
	why := resp.Status
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), t.now()); ok {
		if d > t.cfg.MaxRetryAfter {
			t.log.Warn("openai: Retry-After too long; giving up", "endpoint", t.cfg.Name, "retry_after", d)
			return 0, "", false
		}
		return d, why + " with Retry-After", true
	}
	return backoff(t.cfg.BackoffBase, t.cfg.BackoffMax, n, t.jitter), why, true
}

// timedOut reports an attempt that ended for want of an answer within
// its timeout.
func timedOut(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	ne := net.Error(nil)
	return errors.As(err, &ne) && ne.Timeout()
}

// releasingBody frees the attempt's slot and timeout when closed.
type releasingBody struct {
	io.ReadCloser
	done func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.done()
	return err
}

// discard drains and closes the body of a response that will be retried,
// so the connection can be reused.
func discard(resp *http.Response) {
	if resp == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
}
