package discord

import "time"

// SetAckAfter changes how long p waits before deferring an interaction,
// so tests need not wait Discord's real 2.5 s.
func SetAckAfter(p *Platform, d time.Duration) { p.ackAfter = d }

// SetQueueDepth bounds p's per-channel event queues.
func SetQueueDepth(p *Platform, n int) { p.depth = n }

// KnownParent is what p remembers of channel's parent.
func KnownParent(p *Platform, channel string) string { return p.knownParent(channel) }
