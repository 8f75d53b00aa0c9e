package web

import "context"

// loggedAct is the answer to an act, kept by event ID (Platform.acts).
// The room page sends an act whose request failed again, with the same
// ID; the retry is not handled a second time but gets the first request's
// answer (waiting for it while the first is still being handled), so a
// refused act stays refused for the page, and an act the page is told is
// done was handled. done is closed once the answer is known.
type loggedAct struct {
	done chan struct{}
	code int
	resp actResponse
}

func newLoggedAct() *loggedAct { return &loggedAct{done: make(chan struct{})} }

// finish records the answer of the first request.
func (a *loggedAct) finish(code int, resp actResponse) {
	a.code, a.resp = code, resp
	close(a.done)
}

// wait returns the first request's answer, or false if ctx ends before
// there is one.
func (a *loggedAct) wait(ctx context.Context) (int, actResponse, bool) {
	select {
	case <-a.done:
		return a.code, a.resp, true
	case <-ctx.Done():
		return 0, actResponse{}, false
	}
}
