package bot

import (
	"context"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Organiser-only tables. A table opens its first phase only once a person
// sits at it: a starter who only organises (join:no), with or without bot
// agents, gets a table that waits, and the first person to join opens
// round 1. And a phase closes early, as "everyone acted", only while a
// person is seated: agents alone answer at once, which would close every
// phase before anyone could join; without a person the phase runs to its
// deadline.

// hasPerson reports whether a human is seated.
func (lt *live) hasPerson() bool {
	found := false
	lt.table.Read(func(s *roundtable.State) { found = seatsPerson(s) })
	return found
}

func seatsPerson(s *roundtable.State) bool {
	for _, p := range s.Participants {
		if p.Kind == roundtable.Human {
			return true
		}
	}
	return false
}

// openWaiting opens a table that waits for its first person.
func (lt *live) openWaiting(ctx context.Context) {
	var status roundtable.Status
	lt.table.Read(func(s *roundtable.State) { status = s.Status })
	if status == roundtable.StatusCreated {
		lt.begin(ctx)
	}
}
