package bot

import (
	"fmt"
	"strings"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// warnBefore is how long before a phase's deadline the table is warned.
const warnBefore = time.Minute

// armWarning arms the warning of the open phase: a minute before its
// deadline the table is told who has not acted yet. A phase with no
// deadline, or that closes within two minutes (where a warning would be
// noise: the web room's countdown turns red by itself), gets none. The
// caller holds mu.
func (lt *live) armWarning(s *roundtable.State, now time.Time) {
	lt.stopWarning()
	if s.Status != roundtable.StatusRunning || s.Deadline.IsZero() || s.Deadline.Sub(now) <= 2*warnBefore {
		return
	}
	pos, deadline := s.Position(), s.Deadline
	lt.warning = lt.svc.deps.Clock.AfterFunc(deadline.Sub(now)-warnBefore, func() { lt.onWarning(pos, deadline) })
}

// stopWarning disarms the warning; the caller holds mu.
func (lt *live) stopWarning() {
	if lt.warning != nil {
		lt.warning.Stop()
		lt.warning = nil
	}
}

// onWarning posts the warning if the phase is still open with the same
// deadline (an extension re-arms it) and someone has not acted. The post
// goes straight to the platform, after the table's lock is released, not
// through the outbox: it follows from the clock, not from an event, and a
// warning lost in an outage is not worth delaying the phase's own posts.
func (lt *live) onWarning(pos roundtable.Position, deadline time.Time) {
	text, ok := lt.warningText(pos, deadline)
	if !ok {
		return
	}
	if _, err := lt.platform.Post(lt.svc.context(), lt.channel, Message{Text: text}); err != nil {
		lt.svc.log.Warn("phase warning not posted", "table", lt.table.ID(), "round", pos.Round, "phase", pos.Phase, "err", err)
	}
}

func (lt *live) warningText(pos roundtable.Position, deadline time.Time) (string, bool) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.stopped {
		return "", false
	}
	s := lt.table.Snapshot()
	if s.Status != roundtable.StatusRunning || s.Position() != pos || !s.Deadline.Equal(deadline) {
		return "", false
	}
	pending := s.Pending()
	if len(pending) == 0 {
		return "", false
	}
	return renderWarning(s, pending), true
}

func renderWarning(s *roundtable.State, pending []roundtable.Participant) string {
	names := make([]string, len(pending))
	for i, p := range pending {
		names[i] = p.Name
	}
	return fmt.Sprintf("**One minute left** in the %s phase of round %d. Waiting for: %s.", s.Phase, s.Round, strings.Join(names, ", "))
}
