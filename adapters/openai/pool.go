package openai

import "context"

// Pool is a program's endpoints by name; the first added is the default.
// Build it before use; it is then safe for concurrent use.
type Pool struct {
	clients map[string]*Client
	first   string
}

// Add adds c under its configured name; the first added is the default.
func (p *Pool) Add(c *Client) {
	if p.clients == nil {
		p.clients = map[string]*Client{}
	}
	p.clients[c.cfg.Name] = c
	if p.first == "" {
		p.first = c.cfg.Name
	}
}

// Client returns the endpoint named name, or the default for "".
func (p *Pool) Client(name string) (*Client, bool) {
	if name == "" {
		name = p.first
	}
	c, ok := p.clients[name]
	return c, ok
}

// Len is the number of endpoints.
func (p *Pool) Len() int { return len(p.clients) }

// Err is the error of an endpoint whose circuit breaker is open, nil
// while every endpoint serves.
func (p *Pool) Err() error {
	for _, c := range p.clients {
		if err := c.Err(); err != nil {
			return err
		}
	}
	return nil
}

// OnBroken calls broken, in its own goroutine, for each endpoint whose
// circuit breaker opens before ctx is done. The watchers end with ctx.
func (p *Pool) OnBroken(ctx context.Context, broken func(name string, err error)) {
	for name, c := range p.clients {
		go func() {
			select {
			case <-c.Done():
				broken(name, c.Err())
			case <-ctx.Done():
			}
		}()
	}
}

// Usage is every endpoint's token usage and cost, by name.
func (p *Pool) Usage() map[string]Usage {
	out := make(map[string]Usage, len(p.clients))
	for name, c := range p.clients {
		out[name] = c.Usage()
	}
	return out
}
