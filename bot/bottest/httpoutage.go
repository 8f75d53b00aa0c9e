package bottest

import (
	"net/http"
	"net/http/httptest"
	"sync"
)

// HTTPOutage is the outage of a fake platform's HTTP API, for the fakes
// of the adapters (discordtest, slackfake): embed it and run the bot's
// posts and edits through Intercept. While it lasts, they fail before the
// fake takes them, alternately with a 503 and with a dropped connection;
// with LoseAnswers, every other one is taken and its connection dropped
// before the answer (the others go through), so that every post meets a
// lost answer and then a retry that gets through. Its
// zero value is no outage; it is safe for concurrent use and implements
// Outager.
//
// With Blind, an outage instead takes every new post and loses its
// answer, lets edits through, and fails every read of the platform's
// message history (InterceptRead): a post's outcome stays unknown until
// the outage ends, which a process that stops meanwhile never learns.
type HTTPOutage struct {
	mu                sync.Mutex
	down, lost, blind bool
	failures          int
	OnFail            func() // called after each failure, if set
	ServiceUnavail    func(w http.ResponseWriter)
	// IsPost tells a new post from an edit, for Blind; nil: all are posts.
	IsPost func(r *http.Request) bool
}

// SetOutage implements Outager.
func (o *HTTPOutage) SetOutage(down bool) {
	o.mu.Lock()
	o.down = down
	o.mu.Unlock()
}

// LoseAnswers makes the outage take requests and lose their answers.
func (o *HTTPOutage) LoseAnswers(lost bool) {
	o.mu.Lock()
	o.lost = lost
	o.mu.Unlock()
}

// Blind makes the outage take posts and lose their answers, and fail
// reads of the message history, so that no post's outcome can be learnt.
func (o *HTTPOutage) Blind(blind bool) {
	o.mu.Lock()
	o.blind = blind
	o.mu.Unlock()
}

// Failures implements Outager: how many requests failed or lost their
// answers (the ones let through included, with LoseAnswers).
func (o *HTTPOutage) Failures() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.failures
}

// Intercept fails the request if an outage is on and reports whether it
// did; h serves the request first when answers are lost.
func (o *HTTPOutage) Intercept(w http.ResponseWriter, r *http.Request, h http.HandlerFunc) bool {
	o.mu.Lock()
	if !o.down {
		o.mu.Unlock()
		return false
	}
	if o.blind && o.IsPost != nil && !o.IsPost(r) {
		o.mu.Unlock()
		return false // edits go through
	}
	o.failures++
	lost, drop := o.lost || o.blind, o.failures%2 == 0 && !o.blind
	o.mu.Unlock()
	if lost && drop {
		return false // every other request goes through
	}
	if o.OnFail != nil {
		defer o.OnFail()
	}
	if lost {
		h(httptest.NewRecorder(), r)
	}
	if lost || drop {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
	}
	o.unavailable(w)
	return true
}

// InterceptRead fails a read of the platform's message history while a
// Blind outage is on, and reports whether it did.
func (o *HTTPOutage) InterceptRead(w http.ResponseWriter) bool {
	o.mu.Lock()
	fail := o.down && o.blind
	if fail {
		o.failures++
	}
	o.mu.Unlock()
	if !fail {
		return false
	}
	if o.OnFail != nil {
		defer o.OnFail()
	}
	o.unavailable(w)
	return true
}

// unavailable answers that the platform is down: ServiceUnavail, or a bare
// 503.
func (o *HTTPOutage) unavailable(w http.ResponseWriter) {
	if o.ServiceUnavail != nil {
		o.ServiceUnavail(w)
		return
	}
	w.WriteHeader(http.StatusServiceUnavailable)
}
