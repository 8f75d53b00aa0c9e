package bot

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// What people do at a table they sit at.

func (lt *live) join(ctx context.Context, ev *Event) (*Reply, error) {
	p := human(ev)
	lt.mu.Lock()
	s := lt.table.Snapshot()
	_, already := s.Participant(p.ID)
	if seats, ok := lt.table.Task().(Seated); ok && !already && len(s.Participants) >= seats.Seats() {
		lt.mu.Unlock()
		return nil, roundtable.Errorf(roundtable.Conflict, "all %d seats of this table are taken", seats.Seats())
	}
	err := lt.table.Join(ctx, p, "join:"+ev.ID)
	lt.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if already {
		return ephemeral("You are already at this table." + lt.privateBrief(p.ID)), nil
	}
	lt.openWaiting(lt.svc.context())
	return ephemeral("You joined the table. Act in each phase with the buttons in the thread, or with /roundtable propose and /roundtable vote." + lt.privateBrief(p.ID)), nil
}

// Seated is implemented by tasks with a fixed number of seats (the
// exchange economy has one utility per seat).
type Seated interface{ Seats() int }

// privateBrief is what only participant id is told, as a paragraph to
// append to a reply that only it sees.
func (lt *live) privateBrief(id string) string {
	pb, ok := lt.table.Task().(roundtable.PrivateBriefer)
	if !ok {
		return ""
	}
	i := -1
	lt.table.Read(func(s *roundtable.State) { i = s.Index(id) })
	if brief := pb.PrivateBrief(i); i >= 0 && brief != "" {
		return "\n\nOnly you see this: " + brief
	}
	return ""
}

func (lt *live) leave(ctx context.Context, ev *Event) error {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	pos := lt.position()
	if err := lt.table.Leave(ctx, ParticipantID(ev.Platform, ev.User.ID), "leave:"+ev.ID); err != nil {
		return err
	}
	lt.maybeAdvance(ctx, pos)
	return nil
}

func (lt *live) propose(ctx context.Context, ev *Event, text string) (*Reply, error) {
	a := roundtable.Propose{Actor: ParticipantID(ev.Platform, ev.User.ID), Key: "prop:" + ev.ID, Proposal: roundtable.Proposal{Text: text}}
	if err := lt.act(ctx, a); err != nil {
		return nil, err
	}
	return ephemeral("Your proposal is recorded. It becomes a candidate when the proposal phase closes; until then you can change it (the last one counts)."), nil
}

func (lt *live) cast(ctx context.Context, ev *Event, b vote.Ballot) (*Reply, error) {
	var round int
	lt.table.Read(func(s *roundtable.State) { round = s.Round })
	a := roundtable.Cast{Actor: ParticipantID(ev.Platform, ev.User.ID), Key: "vote:" + ev.ID, Ballot: b}
	if err := lt.act(ctx, a); err != nil {
		return nil, err
	}
	return ephemeral(fmt.Sprintf("Your ballot for round %d is recorded: %s. You can change it until the vote closes; the last valid ballot counts.", round, b)), nil
}

func (lt *live) rule() vote.Rule {
	var r vote.Rule
	lt.table.Read(func(s *roundtable.State) { r = s.Config.Rule })
	return r
}

// current refuses controls left over from an earlier round.
func (lt *live) current(round int) error {
	var now int
	var status roundtable.Status
	lt.table.Read(func(s *roundtable.State) { now, status = s.Round, s.Status })
	switch {
	case status == roundtable.StatusEnded:
		return roundtable.Errorf(roundtable.Conflict, "the table has ended")
	case round != now:
		return roundtable.Errorf(roundtable.Conflict, "that was for round %d; the table is in round %d now", round, now)
	}
	return nil
}

// proposalHint is the placeholder of the proposal form.
func (lt *live) proposalHint() string {
	if _, ok := lt.table.Task().(roundtable.StructuredTask); ok {
		return "Structured proposal: see the task description for its format"
	}
	return "What should the table decide?"
}
