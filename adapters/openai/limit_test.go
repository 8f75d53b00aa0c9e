package openai

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTime is a clock that moves only when something sleeps on it.
type fakeTime struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
}

func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeTime) Sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	f.sleeps = append(f.sleeps, d)
	f.now = f.now.Add(d)
	return nil
}

func TestBucketLendsAndRefills(t *testing.T) {
	clock := &fakeTime{now: time.Unix(0, 0)}
	b := newBucket(60, clock.Now) // one token a second, 60 at most
	if d := b.reserve(60); d != 0 {
		t.Fatalf("a full bucket made us wait %v", d)
	}
	if d := b.reserve(1); d != time.Second {
		t.Fatalf("wait %v for one token of an empty bucket, want 1s", d)
	}
	if d := b.reserve(2); d != 3*time.Second {
		t.Fatalf("wait %v behind a debt of 1, want 3s", d)
	}
	clock.Sleep(context.Background(), 10*time.Second)
	if d := b.reserve(7); d != 0 {
		t.Fatalf("after 10s the debt of 3 is paid and 7 left; waited %v", d)
	}
	b.adjust(-5) // a request used fewer tokens than estimated
	if d := b.reserve(5); d != 0 {
		t.Fatalf("refund not credited: wait %v", d)
	}
	if d := b.reserve(1000); d != 60*time.Second {
		t.Fatalf("an oversized request should cost one full bucket: wait %v", d)
	}
	if newBucket(0, clock.Now) != nil || (*bucket)(nil).reserve(1e9) != 0 {
		t.Fatal("a zero budget must be unlimited")
	}
}

func TestBucketWaitGivesTokensBackWhenCancelled(t *testing.T) {
	clock := &fakeTime{now: time.Unix(0, 0)}
	b := newBucket(60, clock.Now)
	b.reserve(60)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.wait(ctx, 30, clock.Sleep); err == nil {
		t.Fatal("wait on a cancelled context succeeded")
	}
	if d := b.reserve(1); d != time.Second {
		t.Fatalf("cancelled tokens were not given back: wait %v, want 1s", d)
	}
}

func TestRequestsPerMinuteSpacesRequests(t *testing.T) {
	clock := &fakeTime{now: time.Unix(0, 0)}
	srv := &scriptServer{}
	var sleeps []time.Duration
	c := newTestClient(t, srv, Config{RequestsPerMinute: 2}, &sleeps)
	c.tr.sleep, c.tr.now = clock.Sleep, clock.Now
	c.tr.rpm = newBucket(2, clock.Now)
	var logs bytes.Buffer
	c.tr.log = slog.New(slog.NewTextHandler(&logs, nil))
	for range 3 {
		if _, err := c.Complete(context.Background(), hello); err != nil {
			t.Fatal(err)
		}
	}
	if len(clock.sleeps) != 1 || clock.sleeps[0] != 30*time.Second {
		t.Fatalf("waits %v, want one of 30s before the third request", clock.sleeps)
	}
	if !strings.Contains(logs.String(), `msg="openai: waiting for the rate budget"`) || !strings.Contains(logs.String(), "budget=requests_per_minute wait=30s") {
		t.Errorf("the wait is not logged:\n%s", logs.String())
	}
}

func TestTokensPerMinuteIsCorrectedFromUsage(t *testing.T) {
	clock := &fakeTime{now: time.Unix(0, 0)}
	var sleeps []time.Duration
	c := newTestClient(t, &scriptServer{}, Config{TokensPerMinute: 600, MaxTokens: 100}, &sleeps)
	c.tr.tpm = newBucket(600, clock.Now)
	if _, err := c.Complete(context.Background(), hello); err != nil {
		t.Fatal(err)
	}
	// The estimate (about 100 tokens) was replaced by the reported 9.
	if d := c.tr.tpm.reserve(591); d != 0 {
		t.Fatalf("usage correction missing: wait %v", d)
	}
}

func TestSemaphoreBoundsAndHonoursContext(t *testing.T) {
	s := newSemaphore(1)
	if err := s.acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.acquire(ctx); err == nil {
		t.Fatal("a second acquire of a full semaphore succeeded")
	}
	s.release()
	if err := s.acquire(ctx); err != nil && len(s) == 0 {
		t.Log("acquire raced the cancelled context; either outcome is allowed when a slot is free")
	}
	if newSemaphore(0).acquire(ctx) != nil {
		t.Fatal("an unbounded semaphore refused")
	}
}

var _ http.Handler = (*scriptServer)(nil)
