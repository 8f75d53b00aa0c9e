package bot

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Organiser-only tables. A table opens its first phase only once a person
// sits at it: a starter who only organises (join:no), with or without bot
// agents, gets a table that waits, and the first person to join opens
// round 1; or the organiser (or whoever may manage the channel) presses
// Start now on the intro, which opens round 1 with the agents alone. And
// a phase closes early, as "everyone acted", only while a person is
// seated: agents alone answer at once, which would close every phase
// before anyone could join; without a person a phase runs to its
// deadline (a phase without a deadline waits for a person).

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
	if lt.status() == roundtable.StatusCreated {
		lt.begin(ctx)
	}
}

// startNow opens round 1 at the organiser's request, people or not.
func (lt *live) startNow(ctx context.Context, ev *Event) (*Reply, error) {
	if err := lt.svc.manages(ctx, ev, lt); err != nil {
		return nil, err
	}
	lt.mu.Lock()
	defer lt.mu.Unlock()
	if lt.status() != roundtable.StatusCreated {
		return ephemeral("The table has already started."), nil
	}
	if err := lt.table.Start(ctx); err != nil {
		return nil, err
	}
	lt.enter(ctx)
	var round int
	lt.table.Read(func(s *roundtable.State) { round = s.Round })
	return ephemeral(fmt.Sprintf("Round %d is open.", round)), nil
}
