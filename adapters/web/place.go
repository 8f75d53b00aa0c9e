package web

import (
	"context"
	"fmt"
	"hash/maphash"
	"sync"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// An act is bound to its room: a control or form of another table is
// refused here, before the bot sees it, and a join must bring a display
// name that is the joiner's own at this table.

// checkPlace refuses an act whose control or form belongs to a table that
// is not this room's.
func (p *Platform) checkPlace(ctx context.Context, ev *bot.Event) refusal {
	if ev.Kind != bot.KindAction && ev.Kind != bot.KindSubmit {
		return refusal{}
	}
	ref, isRef := bot.ControlTable(ev.Action)
	if !isRef || p.tables == nil {
		return refusal{} // not a table's control: the bot says so
	}
	table, ok, err := p.tables.Lookup(ctx, ev.Channel)
	if err != nil {
		p.log.Error("look up the table of a room", "room", ev.Channel, "err", err)
		return refusal{roundtable.Internal, "internal error: the table of this room could not be read; try again"}
	}
	if ok && table != ref { // a room without a table cannot be checked here
		return refusal{roundtable.Forbidden, "Refused: this control belongs to another table, not to the table in this room. " +
			"Use it in that table's room, with that table's join link."}
	}
	return refusal{}
}

// checkName refuses a join under a name that passes for a role or looks
// like the name of someone already seated.
func (p *Platform) checkName(ctx context.Context, ev *bot.Event) refusal {
	if why := nameProblem(ev.User.Name); why != "" {
		return refusal{roundtable.Invalid, "Refused: " + why + " Change your name (at the top of the page) and join again."}
	}
	st, err := p.state(ctx, ev.Channel, roundtable.Viewer{Participant: participantID(ev.User.ID)})
	if err != nil {
		return refusal{} // no table here: the bot says so
	}
	if other, taken := nameTaken(st, participantID(ev.User.ID), ev.User.Name); taken {
		return refusal{roundtable.Conflict, fmt.Sprintf("Refused: %q is already at this table, and %q looks the same. "+
			"Change your name (at the top of the page) and join again.", other.Name, ev.User.Name)}
	}
	return refusal{}
}

// joinLocks serialises the joins of a room, so that two people cannot take
// the same name at once.
type joinLocks struct {
	seed  maphash.Seed
	locks [64]sync.Mutex
}

func newJoinLocks() *joinLocks { return &joinLocks{seed: maphash.MakeSeed()} }

func (j *joinLocks) lock(room string) func() {
	m := &j.locks[maphash.String(j.seed, room)%uint64(len(j.locks))]
	m.Lock()
	return m.Unlock
}
