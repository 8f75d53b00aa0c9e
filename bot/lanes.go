package bot

import "sync"

// DefaultLaneDepth is how many functions may wait in one key's lane when
// Lanes.Depth is zero: far more than a person (or a channel's people)
// does while one event is handled, few enough that a flood of one key
// cannot hold the process's memory.
const DefaultLaneDepth = 64

// Lanes runs functions in order per key, each key's in a goroutine of its
// own: an adapter hands the service a channel's (or a person's) events in
// the order they happened, while other keys do not wait behind a slow one.
// Each key's queue is bounded: a function that finds its lane full is
// refused, and the adapter tells the user to try again (see TryAgain and
// Refuse). The zero value is ready to use; a Lanes is safe for concurrent
// use.
type Lanes struct {
	// Depth bounds the functions waiting in each key's lane (the one
	// running does not count); zero means DefaultLaneDepth.
	Depth int

	mu     sync.Mutex
	queues map[string][]func() // a key is present while its lane drains
	wg     sync.WaitGroup
}

// Do queues f behind key's earlier functions and reports true, or reports
// false, queueing nothing, when key's lane is full.
func (l *Lanes) Do(key string, f func()) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.queues == nil {
		l.queues = map[string][]func(){}
	}
	q, draining := l.queues[key]
	if len(q) >= l.depth() {
		return false
	}
	l.queues[key] = append(q, f)
	if !draining {
		l.wg.Add(1)
		go l.drain(key)
	}
	return true
}

// Refuse runs refused, the answer to a function Do refused for key, in a
// lane of its own so that the caller (often a connection's only reader)
// does not wait for it; it reports false when that lane is full as well.
func (l *Lanes) Refuse(key string, refused func()) bool {
	return l.Do("\x00refused\x00"+key, refused)
}

func (l *Lanes) depth() int {
	if l.Depth > 0 {
		return l.Depth
	}
	return DefaultLaneDepth
}

// drain runs key's queue until it is empty. The function running stays
// out of the queue, so the depth counts waiting functions only.
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
		f := q[0]
		q[0] = nil // let f go once it has run
		l.queues[key] = q[1:]
		l.mu.Unlock()
		f()
	}
}

// Wait returns once every queued function has run.
func (l *Lanes) Wait() { l.wg.Wait() }

// TryAgainText is what a user is told when their event was refused
// because too many events of theirs (or of their channel) are waiting.
const TryAgainText = "roundtable is still busy with earlier actions here, so this one was not recorded. Please try again in a moment."

// TryAgain is the ephemeral reply to an event that could not be queued.
func TryAgain() Reply { return Reply{Text: TryAgainText, Ephemeral: true} }
