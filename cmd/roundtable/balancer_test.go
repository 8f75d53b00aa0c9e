package main

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"
)

// balancer is a load balancer in front of the web channels of several
// serve processes, as one in front of a cluster would be: each request
// goes to a random process that is up, whatever room it is for.
type balancer struct {
	srv *httptest.Server

	mu       sync.Mutex
	backends map[string]*url.URL // by name
	rng      *rand.Rand
}

func newBalancer(t testing.TB) *balancer {
	b := &balancer{backends: map[string]*url.URL{}, rng: rand.New(rand.NewPCG(1, 2))}
	b.srv = httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			if u := b.pick(); u != nil {
				pr.SetURL(u)
			}
			pr.Out.Host = pr.In.Host
		},
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, _ error) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable) // no process answered: the client tries again
		},
	})
	t.Cleanup(b.srv.Close)
	return b
}

// URL is the balancer's address.
func (b *balancer) URL() string { return b.srv.URL }

// set puts a process behind the balancer (base "" takes it out).
func (b *balancer) set(name, base string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if base == "" {
		delete(b.backends, name)
		return
	}
	u, _ := url.Parse(base)
	b.backends[name] = u
}

func (b *balancer) pick() *url.URL {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.backends) == 0 {
		return &url.URL{Scheme: "http", Host: "127.0.0.1:1"} // nobody is up: refused
	}
	n := b.rng.IntN(len(b.backends))
	for _, u := range b.backends {
		if n == 0 {
			return u
		}
		n--
	}
	return nil
}
