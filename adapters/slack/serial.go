package slack

import "sync"

// serial runs functions in order per key (a user), each key in its own
// goroutine: one person's clicks and commands are handled in the order
// they were made, while different people do not wait for each other.
type serial struct {
	mu     sync.Mutex
	queues map[string][]func()
	wg     sync.WaitGroup
}

func newSerial() *serial { return &serial{queues: map[string][]func(){}} }

// do queues f after key's earlier functions.
func (s *serial) do(key string, f func()) {
	s.mu.Lock()
	q, busy := s.queues[key]
	s.queues[key] = append(q, f)
	if !busy {
		s.wg.Add(1)
	}
	s.mu.Unlock()
	if !busy {
		go s.drain(key)
	}
}

// drain runs key's queue until it is empty.
func (s *serial) drain(key string) {
	defer s.wg.Done()
	for {
		s.mu.Lock()
		q := s.queues[key]
		if len(q) == 0 {
			delete(s.queues, key)
			s.mu.Unlock()
			return
		}
		f := q[0]
		s.queues[key] = q[1:]
		s.mu.Unlock()
		f()
	}
}

// wait waits until every queued function has run.
func (s *serial) wait() { s.wg.Wait() }
