package bot

import (
	"context"
	"errors"
)

// Where says which process serves the table in channel: this one (Self),
// or another, at its address for the platform (Addrs). A channel without a
// table, an ended table and any table of a service without Deps.Owners
// are served here. A table no process owns now (its owner died moments
// ago) is taken over here, at once, so that whoever asks for it is
// served without waiting for the others to campaign for it.
func (t *Tables) Where(ctx context.Context, channel string) (Owner, error) {
	here := Owner{Self: true}
	s := t.svc
	if s.deps.Owners == nil {
		return here, nil
	}
	id, ok, err := t.Lookup(ctx, channel)
	if err != nil || !ok {
		return here, err
	}
	s.mu.Lock()
	_, held := s.tables[id]
	s.mu.Unlock()
	if held {
		return here, nil
	}
	o, owned, err := s.deps.Owners.Owner(ctx, id)
	switch {
	case err != nil:
		return Owner{}, err
	case owned:
		return o, nil
	case s.delivered(ctx, id):
		return here, nil // ended, its last posts out: any process shows it as stored
	}
	if _, err := s.load(ctx, id); errors.Is(err, errElsewhere) {
		o, _, err = s.deps.Owners.Owner(ctx, id) // another process was quicker
		return o, err
	} else if err != nil {
		return Owner{}, err
	}
	return here, nil
}
