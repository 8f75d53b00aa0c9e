package web

import (
	"context"
	"sync"
)

// actLog remembers the answers to the latest acts by event ID. The room
// page sends an act whose request failed again, with the same ID; the
// retry is not handled a second time but gets the first request's answer
// (waiting for it while the first is still being handled), so a refused
// act stays refused for the page, and an act the page is told is done was
// handled.
type actLog struct {
	mu    sync.Mutex
	n     int
	acts  map[string]*loggedAct
	order []string
}

// loggedAct is one act's answer; done is closed once it is known.
type loggedAct struct {
	done chan struct{}
	code int
	resp actResponse
}

func newActLog(n int) *actLog { return &actLog{n: n, acts: map[string]*loggedAct{}} }

// begin returns the entry of the act id and whether this request is its
// first: the first handles the act and must call finish.
func (l *actLog) begin(id string) (*loggedAct, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a, ok := l.acts[id]; ok {
		return a, false
	}
	a := &loggedAct{done: make(chan struct{})}
	l.acts[id] = a
	l.order = append(l.order, id)
	if len(l.order) > l.n {
		delete(l.acts, l.order[0])
		l.order = l.order[1:]
	}
	return a, true
}

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
