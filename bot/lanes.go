package bot

import "sync"

// Lanes runs functions in order per key, each key's in a goroutine of its
// own: an adapter hands the service a channel's (or a person's) events in
// the order they happened, while other keys do not wait behind a slow one.
// The zero value is ready to use; a Lanes is safe for concurrent use.
type Lanes struct {
	mu     sync.Mutex
	queues map[string][]func() // a key is present while its lane drains
	wg     sync.WaitGroup
}

// Do queues f behind key's earlier functions.
func (l *Lanes) Do(key string, f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.queues == nil {
		l.queues = map[string][]func(){}
	}
	q, draining := l.queues[key]
	l.queues[key] = append(q, f)
	if !draining {
		l.wg.Add(1)
		go l.drain(key)
	}
}

// drain runs key's queue until it is empty.
func (l *Lanes) drain(key string) {
	defer l.wg.Done()
	for {
		l.mu.Lock()
		q := l.queues[key]
		if len(q) == 0 {
			delete(l.queues, key)
			l.mu.Unlock()
			return
		}
		l.queues[key] = q[1:]
		l.mu.Unlock()
		q[0]()
	}
}

// Wait returns once every queued function has run.
func (l *Lanes) Wait() { l.wg.Wait() }
