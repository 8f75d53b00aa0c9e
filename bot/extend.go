package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// defaultExtension is how much time /roundtable extend gives without by.
const defaultExtension = 2 * time.Minute

// extend gives the open phase more time (/roundtable extend [by:2m]): for
// whoever may stop the table. The extension is recorded in the log
// (roundtable.PhaseExtended) and the deadline re-armed; the outbox tells
// the table (renderExtended).
func (s *Service) extend(ctx context.Context, ev *Event, lt *live) (*Reply, error) {
	if err := s.manages(ctx, ev, lt); err != nil {
		return nil, err
	}
	by := defaultExtension
	if v := ev.Options["by"]; v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, roundtable.Errorf(roundtable.Invalid, "by: %q is not a duration such as 90s or 5m", v)
		}
		by = d
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	deadline, err := lt.table.Extend(ctx, ParticipantID(ev.Platform, ev.User.ID), "extend:"+ev.ID, by)
	if err != nil {
		return nil, err
	}
	st, now := lt.table.Snapshot(), s.deps.Clock.Now()
	lt.arm(st, now)
	left := deadline.Sub(now).Round(time.Second)
	return ephemeral(fmt.Sprintf("The %s phase now closes in %s.", st.Phase, left)), nil
}

// renderExtended announces an extension of the open phase.
func renderExtended(d roundtable.PhaseExtended, now time.Time) string {
	return fmt.Sprintf("The organiser extended the %s phase by %s: it now closes in %s (%s UTC).",
		d.Phase, d.By, d.Deadline.Sub(now).Round(time.Second), d.Deadline.UTC().Format("15:04:05"))
}
