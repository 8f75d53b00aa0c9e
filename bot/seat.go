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
	if limit := lt.seatLimit(s); !already && limit > 0 && len(s.Participants) >= limit {
		lt.mu.Unlock()
		return nil, roundtable.Errorf(roundtable.Conflict, "%s", wordsSeatsTaken(s, limit))
	}
	err := lt.table.Join(ctx, p, "join:"+ev.ID)
	if err == nil && !already {
		lt.startWhenDue(lt.svc.context())
	}
	lt.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if already {
		return ephemeral(wordsAlreadySeated + lt.privateBrief(p.ID)), nil
	}
	return ephemeral(joinedReply(lt.table.Snapshot()) + lt.privateBrief(p.ID)), nil
}

// seatLimit is how many may sit at s: a task sized by its seats once it
// is sized (when the table starts, or by its config), else none (0).
func (lt *live) seatLimit(s *roundtable.State) int {
	seats, ok := lt.table.Task().(Seated)
	if !ok || s.Config.Task.Params[roundtable.ParamSeats] == "" && s.Status == roundtable.StatusCreated {
		return 0
	}
	return seats.Seats()
}

// Seated is implemented by tasks with a fixed number of seats (the
// exchange economy has one utility per seat).
type Seated interface{ Seats() int }

// privateBrief is what only participant id is told, as a paragraph to
// append to a reply that only it sees.
func (lt *live) privateBrief(id string) string {
	if brief := lt.ownBrief(id); brief != "" {
		return "\n\nOnly you see this: " + brief
	}
	return ""
}

// ownBrief is what only participant id is told (roundtable.PrivateBriefer),
// or "". A task sized by its seats tells it once the table has started:
// before, the seats, and so everyone's share, may still change.
func (lt *live) ownBrief(id string) string {
	pb, ok := lt.table.Task().(roundtable.PrivateBriefer)
	if !ok {
		return ""
	}
	i, sizing := -1, false
	lt.table.Read(func(s *roundtable.State) {
		i = s.Index(id)
		sizing = s.Status == roundtable.StatusCreated && s.Config.Task.Params[roundtable.ParamSeats] == ""
	})
	if _, seated := pb.(Seated); i < 0 || (sizing && seated) {
		return ""
	}
	return pb.PrivateBrief(i)
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
