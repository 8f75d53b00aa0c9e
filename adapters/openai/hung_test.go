package openai_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/roundtabletest"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// hungServer is a real server on 127.0.0.1 that accepts every request and
// never answers: the client's timeout or its caller's deadline ends each.
func hungServer(t *testing.T) *openaitest.Server {
	t.Helper()
	srv := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply { return openaitest.Hang() })
	t.Cleanup(srv.Close)
	return srv
}

// wantBroken wants c's breaker open, with a message naming the endpoint
// and what to check, and one of errs (if any) to be the breaker's.
func wantBroken(t *testing.T, c *openai.Client, errs []error) {
	t.Helper()
	select {
	case <-c.Done():
	default:
		t.Fatalf("the breaker is closed after calls that got no answer: %v", errs)
	}
	if msg := c.Err().Error(); !strings.Contains(msg, `openai endpoint "hung"`) || !strings.Contains(msg, "check that it is running") ||
		!strings.Contains(msg, "raise timeout") {
		t.Errorf("breaker message %q, want the endpoint and what to check", msg)
	}
	if errs == nil {
		return
	}
	for _, err := range errs {
		var e *agent.Error
		if errors.As(err, &e) && e.Code == agent.CodeBroken {
			return
		}
	}
	t.Errorf("no call failed with the breaker's error: %v", errs)
}

var helloReq = agent.Request{Messages: []agent.ChatMessage{{Role: agent.RoleUser, Content: "hello"}}}

// TestDefaultsGiveUpAHungEndpointWithinAMinute: with the default config,
// the calls of one phase (as many as BreakerFailures, made at once) to a
// server that never answers end after one attempt's timeout each, and
// together open the breaker: a hung endpoint stops a run within a minute.
// The calls go to a real hung socket, with the timeout shortened for the
// test and every other setting at its default.
func TestDefaultsGiveUpAHungEndpointWithinAMinute(t *testing.T) {
	def := openai.Config{Model: "m"}.WithDefaults()
	if def.Timeout >= time.Minute || def.BreakerFailures < 1 || def.BreakerFailures > 3 {
		t.Fatalf("default timeout %s and breaker_failures %d: the calls of a phase to a hung server would not open the breaker within a minute",
			def.Timeout, def.BreakerFailures)
	}
	srv := hungServer(t)
	c := openai.New(openai.Config{Name: "hung", BaseURL: srv.URL(), Model: "m", Timeout: 50 * time.Millisecond})
	errs := make([]error, def.BreakerFailures)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Complete(context.Background(), helloReq)
		}()
	}
	wg.Wait()
	wantBroken(t, c, errs)
	if n := srv.Count(nil); n != def.BreakerFailures {
		t.Errorf("%d attempts, want %d: one per call, a timed-out attempt is not retried", n, def.BreakerFailures)
	}
}

// TestCallsCutByThePhaseDeadlineCount: the phase's deadline passes before
// the attempt's timeout (the phase is shorter); calls the silent server
// held until then count toward the breaker, which opens after
// BreakerFailures of them.
func TestCallsCutByThePhaseDeadlineCount(t *testing.T) {
	srv := hungServer(t)
	c := openai.New(openai.Config{Name: "hung", BaseURL: srv.URL(), Model: "m", BreakerFailures: 2})
	var errs []error
	for range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := c.Complete(ctx, helloReq)
		cancel()
		errs = append(errs, err)
	}
	wantBroken(t, c, errs)
}

// TestCancelledCallsDoNotCount: a call its caller cancels (a stopped
// table, a shutdown) says nothing about the server.
func TestCancelledCallsDoNotCount(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv := openaitest.NewServer(func(context.Context, *openaitest.Request) openaitest.Reply {
		cancel() // the request is in; its caller gives up
		return openaitest.Hang()
	})
	defer srv.Close()
	c := openai.New(openai.Config{Name: "hung", BaseURL: srv.URL(), Model: "m", BreakerFailures: 1})
	if _, err := c.Complete(ctx, helloReq); err == nil {
		t.Fatal("a cancelled call succeeded")
	}
	if err := c.Err(); err != nil {
		t.Errorf("a cancelled call opened the breaker: %v", err)
	}
}

// TestHungEndpointStopsATableAfterOnePhase runs a table of three agents
// against a hung server with the default attempt timeout and a phase
// timeout shorter than it: the first phase ends by its deadline with the
// three calls unanswered, which opens the breaker and stops the run.
func TestHungEndpointStopsATableAfterOnePhase(t *testing.T) {
	srv := hungServer(t)
	c := openai.New(openai.Config{Name: "hung", BaseURL: srv.URL(), Model: "m"})
	task := roundtable.TextTask{Topic: "what next?"}
	ctx := context.Background()
	tbl, err := roundtable.Create(ctx, roundtabletest.NewMemStore(), roundtabletest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)),
		task, "t1", roundtable.Config{Rule: vote.Plurality, Rounds: 3, Seed: 1, Participants: seats})
	if err != nil {
		t.Fatal(err)
	}
	a := agent.New(c, task, agent.Options{})
	agents := map[string]roundtable.Agent{}
	for _, p := range seats {
		agents[p.ID] = a
	}
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		select {
		case <-c.Done():
			stop() // as sim does
		case <-runCtx.Done():
		}
	}()
	_, _ = (&roundtable.Runner{Agents: agents, Timeout: 100 * time.Millisecond}).Run(runCtx, tbl)
	wantBroken(t, c, nil)
	// The calls of the phase after may have gone out while the first
	// phase's were being counted; the run stops within its first round
	// all the same, where a table of three rounds would ask 27 times.
	if n := srv.Count(nil); n < len(seats) || n > 3*len(seats) {
		t.Errorf("%d requests, want the run stopped within its first round (%d to %d)", n, len(seats), 3*len(seats))
	}
}
