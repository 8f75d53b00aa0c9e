package web

import (
	"context"
	"errors"
	"fmt"

	"github.com/roundtable-ai/roundtable/bot"
	"github.com/roundtable-ai/roundtable/roundtable"
)

// echo shows a message typed in a room once the bot has handled it. The
// bot records chat silently (it gives plain chat no replies), so the room
// says what became of it: in live mode it is shown to everyone at once,
// in sealed mode its author is told it is kept sealed, and a message that
// was not recorded gets the reason. A room without a table shows it to
// everyone, as chat platforms do.
func (p *Platform) echo(ctx context.Context, ev *bot.Event) {
	st, err := p.state(ctx, ev.Channel, roundtable.Viewer{Participant: participantID(ev.User.ID)})
	var recorded bool
	if err == nil {
		recorded, err = p.tables.Recorded(ctx, ev)
	}
	switch {
	case errors.Is(err, errNoTable):
		p.postAs(ctx, ev)
		return
	case err != nil: // a table that cannot be read must not show what may be sealed
		p.log.Warn("echo", "room", ev.Channel, "err", err)
		p.tell(ev, "Your message could not be checked: this table's log cannot be read.")
		return
	}
	switch {
	case !recorded:
		reason := "Your message was not recorded: " + whyNot(st, participantID(ev.User.ID)) + "."
		p.tell(ev, reason)
		if n, ok := ctx.Value(noteKey{}).(*note); ok {
			n.refuse(roundtable.Conflict, reason)
		}
	case st.Config.Mode == roundtable.Live:
		if seat, ok := st.Participant(participantID(ev.User.ID)); ok {
			ev.User.Name = seat.Name // the name it was seated under, not the browser's latest
		}
		p.postAs(ctx, ev)
	default:
		p.tell(ev, "Your message is recorded. It stays sealed until the message phase closes; then everyone sees it.")
	}
}

func (p *Platform) postAs(ctx context.Context, ev *bot.Event) {
	pt := post{Kind: authorUser, Author: ev.User.Name, Text: ev.Text, Time: p.cfg.Now()}
	if _, err := p.rooms.add(ctx, ev.Channel, pt); err != nil {
		p.log.Warn("show message", "room", ev.Channel, "err", err)
	}
}

func (p *Platform) tell(ev *bot.Event, text string) {
	p.inbox.add(ev.User.ID, privItem{Channel: ev.Channel, Kind: privText, Text: text}, nil)
}

// whyNot guesses why a participant's message was not recorded.
func whyNot(s *roundtable.State, who string) string {
	_, seated := s.Participant(who)
	switch {
	case s.Status == roundtable.StatusEnded:
		return "the table has ended"
	case !seated:
		return "you have not joined this table (press Join)"
	case s.Status == roundtable.StatusCreated:
		return "the table has not started yet"
	case s.Phase != roundtable.PhaseMessage:
		return fmt.Sprintf("it is the %s phase; messages are taken in the message phase", s.Phase)
	case s.Acted[who]:
		return "you already sent your message this round"
	case !s.HasTurn(who):
		return "it is not your turn: only " + s.TurnNames() + " may speak now"
	}
	return "the table did not accept it"
}
