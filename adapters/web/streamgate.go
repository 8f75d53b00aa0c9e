package web

import (
	"cmp"
	"net"
	"net/http"
	"sync"
	"time"
)

// Defaults of StreamLimits.
const (
	DefaultAnonymousStreams  = 64
	DefaultStreamsPerAddress = 4
	DefaultAnonymousLife     = 10 * time.Minute
)

// StreamLimits bound the live streams that need no link (the lobby's):
// each holds a connection and a file descriptor, and anyone who can reach
// the port may open them.
type StreamLimits struct {
	// Anonymous is how many may be open at once
	// (default DefaultAnonymousStreams); more are refused with 503.
	Anonymous int
	// PerAddress is how many one client address may have open at once
	// (default DefaultStreamsPerAddress); more are refused with 429.
	PerAddress int
	// Life is how long one lasts before the server ends it (default
	// DefaultAnonymousLife); a browser's EventSource reconnects.
	Life time.Duration
}

func (l StreamLimits) withDefaults() StreamLimits {
	l.Anonymous = cmp.Or(l.Anonymous, DefaultAnonymousStreams)
	l.PerAddress = cmp.Or(l.PerAddress, DefaultStreamsPerAddress)
	l.Life = cmp.Or(l.Life, DefaultAnonymousLife)
	return l
}

// streamGate counts the open streams that need no link, in all and per
// address.
type streamGate struct {
	mu     sync.Mutex
	limits StreamLimits
	open   int
	byAddr map[string]int
	left   *signal // fired when a stream is counted out
}

func newStreamGate(l StreamLimits) *streamGate {
	return &streamGate{limits: l, byAddr: map[string]int{}, left: newSignal()}
}

// changed returns a channel closed when a stream is next counted out.
func (g *streamGate) changed() <-chan struct{} { return g.left.wait() }

// enter counts a stream from addr in, and returns the function that
// counts it out; or, when a limit is reached, the HTTP status of the
// refusal.
func (g *streamGate) enter(addr string) (leave func(), code int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.byAddr[addr] >= g.limits.PerAddress:
		return nil, http.StatusTooManyRequests
	case g.open >= g.limits.Anonymous:
		return nil, http.StatusServiceUnavailable
	}
	g.open++
	g.byAddr[addr]++
	return func() {
		g.mu.Lock()
		g.open--
		if g.byAddr[addr]--; g.byAddr[addr] == 0 {
			delete(g.byAddr, addr)
		}
		g.mu.Unlock()
		g.left.fire()
	}, 0
}

// remoteHost is the client's address without its port.
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
