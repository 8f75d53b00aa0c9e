package openai

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryable reports whether an attempt that ended with this status may
// succeed if tried again.
func retryable(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusTooManyRequests,
		http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return status >= 520 && status <= 599 // proxies' "origin unreachable" family
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP
// date, relative to now. It reports false for an absent or unreadable
// header; a date in the past is a zero delay.
func parseRetryAfter(h string, now time.Time) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(h, 64); err == nil {
		if secs < 0 || secs > 1e9 {
			return 0, false
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	t, err := http.ParseTime(h)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// backoff is the wait before retry n (0-based): BackoffBase doubled n
// times, capped at BackoffMax, with "equal jitter" (a uniform draw from the
// upper half), so that clients that failed together do not retry together.
func backoff(base, ceiling time.Duration, n int, jitter func(int64) int64) time.Duration {
	d := ceiling
	if n < 62 && base<<n > 0 && base<<n < ceiling {
		d = base << n
	}
	half := int64(d / 2)
	if half <= 0 {
		return d
	}
	return time.Duration(half + jitter(half+1))
}

// defaultJitter draws uniformly from [0, n).
func defaultJitter(n int64) int64 { return rand.Int64N(n) }

// sleepCtx waits for d or until ctx is done.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
