package bot

import (
	"context"
	"fmt"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Handle processes one user event: it is the Handler the service gives to
// every platform. Errors become ephemeral replies that say what is wrong;
// internal ones are logged and shown as "internal error".
func (s *Service) Handle(ctx context.Context, ev *Event) {
	if ev.User.Bot {
		return // the bot's own messages and other bots' are not participants' acts
	}
	p, ok := s.platforms[ev.Platform]
	if !ok {
		s.log.Warn("event from unknown platform", "platform", ev.Platform)
		return
	}
	reply, err := s.dispatch(ctx, ev)
	if err != nil {
		if roundtable.ErrorCode(err) == roundtable.Internal {
			s.log.Error("handle event", "platform", ev.Platform, "kind", ev.Kind, "err", err)
		} else if _, refused := Refused(err); refused {
			s.log.Warn("the platform refused", "platform", ev.Platform, "kind", ev.Kind, "err", err)
		}
		if ev.Kind == KindMessage && !roundtable.NotYourTurn(err) {
			s.log.Debug("thread message not recorded", "err", err)
			return // plain chat gets no error replies, but a speaker out of turn learns why
		}
		reply = &Reply{Text: roundtable.ErrorMessage(err), Ephemeral: true, Refused: roundtable.ErrorCode(err)}
	}
	if reply == nil {
		return
	}
	if err := p.Reply(ctx, ev, *reply); err != nil {
		s.log.Warn("reply", "platform", ev.Platform, "err", err)
	}
}

func (s *Service) dispatch(ctx context.Context, ev *Event) (*Reply, error) {
	switch ev.Kind {
	case KindCommand:
		return s.command(ctx, ev)
	case KindMessage:
		return s.message(ctx, ev)
	case KindAction:
		return s.action(ctx, ev)
	case KindSubmit:
		return s.submit(ctx, ev)
	}
	return nil, fmt.Errorf("unknown event kind %q", ev.Kind)
}

func (s *Service) command(ctx context.Context, ev *Event) (*Reply, error) {
	switch ev.Command {
	case "start":
		return s.start(ctx, ev)
	case "study":
		return s.study(ctx, ev)
	case "help", "":
		return ephemeral(helpText), nil
	}
	lt, err := s.commandTable(ctx, ev)
	if err != nil {
		return nil, err
	}
	switch ev.Command {
	case "join":
		return lt.join(ctx, ev)
	case "leave":
		if err := lt.leave(ctx, ev); err != nil {
			return nil, err
		}
		return ephemeral("You left the table."), nil
	case "propose":
		return lt.propose(ctx, ev, ev.Options["text"])
	case "vote":
		b, err := ParseBallot(lt.rule(), ev.Options["ballot"])
		if err != nil {
			return nil, roundtable.Errorf(roundtable.Invalid, "ballot not recorded: %v", err)
		}
		b.Reason = ev.Options[reasonField]
		return lt.cast(ctx, ev, b)
	case "status":
		return lt.statusReply(ev), nil
	case "begin":
		return lt.startNow(ctx, ev)
	case "stop":
		return s.stop(ctx, ev, lt)
	case "extend":
		return s.extend(ctx, ev, lt)
	case "close":
		return s.closePhase(ctx, ev, lt)
	case "export":
		return s.export(ctx, ev, lt)
	}
	return nil, roundtable.Errorf(roundtable.Invalid, "unknown command %q; try /roundtable help", ev.Command)
}

// commandTable finds the table a command is about: the one bound to the
// channel (thread) it was sent in, or the one named by its table option.
func (s *Service) commandTable(ctx context.Context, ev *Event) (*live, error) {
	if id := ev.Options["table"]; id != "" {
		return s.namedTable(ctx, ev, id)
	}
	lt, err := s.tableIn(ctx, ev.Platform, ev.Channel)
	if roundtable.ErrorCode(err) != roundtable.NotFound {
		return lt, err
	}
	id, ok, lerr := s.deps.Store.Lookup(ctx, latestKey(ev.Platform, ev.Channel))
	if lerr != nil || !ok {
		return nil, err
	}
	return s.tableByID(ctx, ev.Platform, id)
}

func (s *Service) message(ctx context.Context, ev *Event) (*Reply, error) {
	lt, err := s.tableIn(ctx, ev.Platform, ev.Channel)
	if err != nil {
		return nil, err
	}
	if lt.position().Phase == roundtable.PhasePrivate {
		return nil, roundtable.Errorf(roundtable.Invalid, "private messages go through the Write private message button: this thread is public")
	}
	return nil, lt.act(ctx, roundtable.Say{Actor: ParticipantID(ev.Platform, ev.User.ID), Key: keyTypedMessage + ev.ID, Text: ev.Text})
}

func (s *Service) action(ctx context.Context, ev *Event) (*Reply, error) {
	r, lt, err := s.refTable(ctx, ev)
	if err != nil {
		return nil, err
	}
	if r.Verb == verbJoin {
		return lt.join(ctx, ev)
	}
	if r.Verb == verbStart {
		return lt.startNow(ctx, ev)
	}
	if r.Verb == verbRefresh {
		return lt.statusReply(ev), nil
	}
	if err := lt.current(r.Round); err != nil {
		return nil, err
	}
	if v, ok := levelOf(r.Verb); ok {
		return lt.report(ctx, ev, r.Round, v)
	}
	switch r.Verb {
	case verbWrite, verbPrivate:
		label := "Your message to the table"
		if r.Verb == verbPrivate {
			label = wordsPrivateLabel
		}
		return &Reply{Form: &Form{ID: withVerb(r, verbMessage), Title: fmt.Sprintf("Round %d message", r.Round),
			Fields: []Field{{ID: "text", Label: label, Long: true, MaxLen: maxInput}}}}, nil
	case verbPropose:
		return &Reply{Form: &Form{ID: withVerb(r, verbPropose), Title: fmt.Sprintf("Round %d proposal", r.Round),
			Fields: []Field{{ID: "text", Label: "Your proposal", Long: true, MaxLen: maxInput, Placeholder: lt.proposalHint()}}}}, nil
	case verbSkip:
		if err := lt.act(ctx, roundtable.Skip{Actor: ParticipantID(ev.Platform, ev.User.ID), Key: "skip:" + ev.ID}); err != nil {
			return nil, err
		}
		return ephemeral("You skip this round's proposal; your latest proposal stays your candidate."), nil
	case verbChoose:
		b := vote.Ballot{Choice: first(ev.Values)}
		if lt.rule().Format() == vote.FormatApprove {
			b = vote.Ballot{Approve: ev.Values}
		}
		return lt.cast(ctx, ev, b)
	case verbAbstain:
		return lt.cast(ctx, ev, vote.Ballot{Abstain: true})
	case verbBallot:
		var f Form
		lt.table.Read(func(st *roundtable.State) { f = ballotForm(st.ID, st.Round, st.Config.Rule, st.Candidates) })
		return &Reply{Form: &f}, nil
	case verbSurvey:
		f, err := surveyForm(lt.table.Snapshot())
		if err != nil {
			return nil, err
		}
		return &Reply{Form: &f}, nil
	}
	return nil, roundtable.Errorf(roundtable.Invalid, "unknown control")
}

func (s *Service) submit(ctx context.Context, ev *Event) (*Reply, error) {
	r, lt, err := s.refTable(ctx, ev)
	if err != nil {
		return nil, err
	}
	if err := lt.current(r.Round); err != nil {
		return nil, err
	}
	switch r.Verb {
	case verbMessage:
		say := roundtable.Say{Actor: ParticipantID(ev.Platform, ev.User.ID), Key: keyFormMessage + ev.ID, Text: ev.Fields["text"]}
		if err := lt.act(ctx, say); err != nil {
			return nil, err
		}
		return ephemeral("Your message is recorded."), nil
	case verbPropose:
		return lt.propose(ctx, ev, ev.Fields["text"])
	case verbSurvey:
		return lt.answer(ctx, ev)
	case verbBallot:
		var form Form
		var cands []roundtable.Candidate
		lt.table.Read(func(st *roundtable.State) {
			cands, form = st.Candidates, ballotForm(st.ID, st.Round, st.Config.Rule, st.Candidates)
		})
		b, err := ballotFromForm(lt.rule(), cands, ev.Fields)
		b.Reason = ev.Fields[reasonField]
		if err != nil {
			err = roundtable.Errorf(roundtable.Invalid, "ballot not recorded: %v", err)
		} else {
			var reply *Reply
			if reply, err = lt.cast(ctx, ev, b); err == nil || roundtable.ErrorCode(err) == roundtable.Internal {
				return reply, err
			}
		}
		return formError(form, err), nil
	}
	return nil, roundtable.Errorf(roundtable.Invalid, "unknown form")
}

func ephemeral(text string) *Reply { return &Reply{Text: text, Ephemeral: true} }

// status1 is the table's status as ev's user asks it, with what only they
// are told (their utility at an exchange table).
func (lt *live) statusReply(ev *Event) *Reply {
	return ephemeral(renderStatus(lt.table.Snapshot(), lt.svc.deps.Clock.Now()) + lt.privateBrief(ParticipantID(ev.Platform, ev.User.ID)))
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}

const helpText = `**roundtable**: people and bot agents deliberate in rounds (message, proposal, vote) and decide by a social-choice rule.
- /roundtable start topic:<question> [rule] [rounds] [agents (or none)] [mode] [message|proposal|vote durations] [secret:yes|no, or research: the organiser's export keeps voter-N labels across rounds] or preset:<name>; audit it with [audit:sentiment,stance audit_statement:<text> self_report:yes]
- a new table waits for its people: [start:organiser (default: /roundtable begin starts it)|full seats:<n>|at start_at:<14:30, or a delay like 10m>] [people:<fewest people it needs>] [facilitator_votes:yes]
- /roundtable study start <name>: open a study the server runs live, and post its cohort link and code here
- /roundtable begin: start a waiting table (for whoever started it or may manage tables)
- /roundtable join, leave, status: in a table's thread
- /roundtable propose text:<proposal>, vote ballot:<ballot> (e.g. "B", "A=5 B=2", "C > A > B", "abstain")
- /roundtable close (the open phase, now), extend [by:2m] (it, by more time), stop, export [format:jsonl|csv] [names:keep]: for whoever started the table or may manage tables`

// formError answers a refused form: the message as text, and against the
// form's first field for platforms that show errors inside the form.
func formError(f Form, err error) *Reply {
	msg := roundtable.ErrorMessage(err)
	r := &Reply{Text: msg, Ephemeral: true, Refused: roundtable.ErrorCode(err)}
	if len(f.Fields) > 0 {
		r.Fields = map[string]string{f.Fields[0].ID: msg}
	}
	return r
}
