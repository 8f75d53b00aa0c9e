package web

import "sync"

// capped is a map that keeps the last n keys put in it, the oldest going
// first: the web channel's memory of recent requests' IDs, so a retried
// request is answered as the first was instead of handled twice.
type capped[V any] struct {
	mu    sync.Mutex
	n     int
	m     map[string]V
	order []string
}

func newCapped[V any](n int) *capped[V] { return &capped[V]{n: n, m: map[string]V{}} }

// get returns key's value ("" or nil without one).
func (c *capped[V]) get(key string) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[key]
}

// put stores v under key.
func (c *capped[V]) put(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.store(key, v)
}

// add stores v under key unless key has a value already; it returns
// key's value and whether it is v, just added.
func (c *capped[V]) add(key string, v V) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[key]; ok {
		return old, false
	}
	c.store(key, v)
	return v, true
}

func (c *capped[V]) store(key string, v V) {
	c.m[key] = v
	c.order = append(c.order, key)
	if len(c.order) > c.n {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
}
