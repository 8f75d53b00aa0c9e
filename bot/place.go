package bot

import (
	"context"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// Where actions belong. A control, form or command acts on the table of
// the place (channel, thread, room) it arrived in: a control or form ID
// naming another table, or a command naming a table that lives elsewhere or
// on another platform, is refused. The adapters rely on this check rather
// than making their own, so every platform (the web's forged requests
// included) gets it.

// ChannelRights is implemented by platforms where what a user may do
// depends on the channel (Discord's roles and permission overwrites). The
// service asks it about the table's own channel, never trusting the rights
// an event carries from wherever it was sent.
type ChannelRights interface {
	// MayManage reports whether user may manage channel (Discord: Manage
	// Channels or Administrator there; a thread's rights are its parent
	// channel's). A user who is not a member of the channel's server may
	// not. It returns an error only when the platform could not be asked.
	MayManage(ctx context.Context, channel, user string) (bool, error)
}

// place returns where a table lives: its thread and the channel it was
// started from.
func (lt *live) place() (thread, parent string) {
	lt.table.Read(func(s *roundtable.State) { parent = s.Config.Labels[labelParent] })
	return lt.channel, parent
}

// refTable decodes a control or form ID and returns its table, which must
// be the table of the thread the event arrived in.
func (s *Service) refTable(ctx context.Context, ev *Event) (ref, *live, error) {
	r, err := parseRef(ev.Action)
	if err != nil {
		return ref{}, nil, roundtable.Errorf(roundtable.Invalid, "this control does not belong to roundtable")
	}
	lt, err := s.tableIn(ctx, ev.Platform, ev.Channel)
	if roundtable.ErrorCode(err) == roundtable.NotFound {
		return r, nil, roundtable.Errorf(roundtable.Forbidden, "that control is for table %s, which is not in this channel", r.Table)
	}
	if err != nil {
		return r, nil, err
	}
	if id := lt.table.ID(); r.Table != id {
		return r, nil, roundtable.Errorf(roundtable.Forbidden, "that control is for table %s; this thread holds table %s", r.Table, id)
	}
	return r, lt, nil
}

// namedTable is the table a command names with its table option: it must
// run on the command's platform and live in the thread or channel the
// command was sent in.
func (s *Service) namedTable(ctx context.Context, ev *Event, id string) (*live, error) {
	lt, err := s.tableByID(ctx, ev.Platform, id)
	if err != nil {
		return nil, err
	}
	if thread, parent := lt.place(); ev.Channel != thread && ev.Channel != parent {
		return nil, roundtable.Errorf(roundtable.Forbidden, "table %s is not in this channel; use /roundtable in its thread", id)
	}
	return lt, nil
}
