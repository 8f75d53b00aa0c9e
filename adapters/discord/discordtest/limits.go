package discordtest

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// bucket is a route's rate limit window.
type bucket struct {
	remaining int
	reset     time.Time
}

// forcedRetry is the retry_after of a forced 429.
const forcedRetry = 50 * time.Millisecond

// middleware checks the token where Discord wants one, applies the rate
// limit of the route, and tells watchers that something may have changed.
func (s *Server) middleware(h http.HandlerFunc, auth bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer s.notify()
		if auth && r.Header.Get("Authorization") != s.opts.Token {
			apiError(w, http.StatusUnauthorized, 0, "401: Unauthorized")
			return
		}
		if !s.admit(w, r) || s.failWrite(w, r, h) {
			return
		}
		h(w, r)
	})
}

// admit counts the request against its route's bucket and sets the
// rate-limit headers; it answers 429 and returns false when the bucket is
// empty or a 429 was forced.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stats.Requests++
	key := bucketKey(r)
	now := time.Now()
	b := s.buckets[key]
	if b == nil || !now.Before(b.reset) {
		b = &bucket{remaining: s.opts.Limit, reset: now.Add(s.opts.Window)}
		s.buckets[key] = b
	}
	if s.force429 > 0 || b.remaining <= 0 {
		retry := b.reset.Sub(now)
		if s.force429 > 0 {
			s.force429--
			retry = forcedRetry
		}
		s.stats.TooMany++
		limitHeaders(w, key, s.opts.Limit, 0, retry)
		writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.",
			"retry_after": retry.Seconds(), "global": false})
		return false
	}
	b.remaining--
	if b.remaining == 0 {
		s.stats.Exhausted++
	}
	limitHeaders(w, key, s.opts.Limit, b.remaining, b.reset.Sub(now))
	return true
}

// majorAfter are the resources whose ID (and, for webhooks and
// interactions, token) is a major parameter of a route: Discord keeps a
// bucket per route and per major parameter.
var majorAfter = map[string]int{"channels": 1, "guilds": 1, "webhooks": 2, "interactions": 2, "applications": 1}

// bucketKey is the rate-limit bucket of a request as Discord counts them:
// the route with its major parameters, any other ID left out. So the
// edits of two messages of a channel share a bucket, and so do posts
// through a webhook into two of its threads (?thread_id= is no part of
// the route): one bucket per webhook.
func bucketKey(r *http.Request) string {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	keep := 0
	for i, part := range parts {
		switch {
		case keep > 0:
			keep--
		case majorAfter[part] > 0:
			keep = majorAfter[part]
		case isSnowflake(part):
			parts[i] = "{id}"
		}
	}
	return r.Method + " /" + strings.Join(parts, "/")
}

func isSnowflake(s string) bool {
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

func limitHeaders(w http.ResponseWriter, key string, limit, remaining int, after time.Duration) {
	sum := sha1.Sum([]byte(key))
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(time.Now().Add(after).UnixMilli())/1000))
	h.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", math.Ceil(float64(after.Microseconds())/1000)/1000))
	h.Set("X-RateLimit-Bucket", hex.EncodeToString(sum[:8]))
}
