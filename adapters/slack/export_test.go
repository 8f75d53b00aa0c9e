package slack

// Idle is closed when the platform has handled every event it took.
func Idle(p *Platform) <-chan struct{} { return p.busy.idle() }

// SetQueueDepth bounds p's per-user event queues.
func SetQueueDepth(p *Platform, n int) { p.depth = n }
