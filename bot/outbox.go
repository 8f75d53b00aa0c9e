package bot

import (
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// The log is the outbox. What the bot posts about a table is a function of
// the table's events: an event recorded implies its posts (a phase opened
// implies its prompt, a phase closed its "closed" edit and, sealed, the
// revealed messages, a decision its result, the end its summary). A
// planner folds the events it is given, in order, into a shadow state and
// derives from each event the posts it implies; the courier delivers the
// ones not yet delivered. Because the events are durable before anything
// is posted, and the record of what was delivered is kept beside them, a
// crash or an outage can delay a post but never lose it.

// Key prefixes of people's messages: one typed in the channel is there
// for all to see already, so in live mode only the others are posted.
const (
	keyTypedMessage = "msg:"
	keyFormMessage  = "form:"
)

// intent is something the log implies the bot must show in a table's
// channel: a post under Key, or (Edit) a new version of the post under Key.
type intent struct {
	Table   string
	Channel string
	Key     string // the post's key: "intro", "r1/message/open", "r1/msg/7", "r1/result", "end"
	Mark    string // the delivery record that says it is done: Key, or Key#what for an edit
	Edit    bool
	Msg     Message
}

// planner derives a table's intents from its events.
type planner struct {
	table   string
	channel string
	brief   func(*roundtable.State) string // the task's brief, for the intro
	state   *roundtable.State
	emit    func(intent)
	done    func(mark string) bool // delivered already
	sent    *sentLog               // told when an event's intents are all emitted
	stubbed int                    // leading rounds of state that are stubs (outbox_trim.go)
	// reopened is set while the planner folds a log it read from the
	// store: a post not recorded as delivered then may have been sent by
	// an earlier process whose record was lost, so it is marked MaybeSent.
	reopened bool
}

// resetTo starts the fold again from a snapshot (nil: from seq 1); the
// planner owns snap.
func (p *planner) resetTo(snap *roundtable.State) {
	if snap == nil {
		snap = &roundtable.State{}
	}
	p.state, p.stubbed = snap, 0
	p.trim()
}

// feed folds events, emitting the intents each implies. Events already
// folded are skipped, so the same events may be fed twice.
func (p *planner) feed(events []roundtable.Event) error {
	if p.emit == nil {
		return nil // not bound to a platform
	}
	if p.state == nil {
		p.resetTo(nil)
	}
	for _, e := range events {
		if e.Seq <= p.state.Seq {
			continue
		}
		if err := p.state.Apply(e); err != nil {
			return fmt.Errorf("outbox of table %s: %w", p.table, err)
		}
		p.implied(e)
		if p.sent != nil {
			p.sent.emitted(e.Seq)
		}
	}
	p.trim()
	return nil
}

// channelViewer is who reads a table's channel: anyone, so its posts show
// what the visibility rule lets everyone see.
var channelViewer = roundtable.Viewer{}

// implied emits what event e (already folded) implies.
func (p *planner) implied(e roundtable.Event) {
	s := p.state
	switch d := e.Data.(type) {
	case roundtable.TableCreated:
		p.post("intro", func() Message { return Message{Text: renderIntro(s, p.brief(s)), Controls: introControls(s)} })
	case roundtable.ParticipantJoined, roundtable.ParticipantLeft:
		// Everyone sees who is in: the intro lists the seats.
		p.edit("intro", fmt.Sprintf("seats/%d", e.Seq), func() Message { return Message{Text: renderIntro(s, p.brief(s)), Controls: introControls(s)} })
	case roundtable.TableStarted:
		p.edit("intro", "started", func() Message { return Message{Text: renderIntro(s, p.brief(s)), Controls: introControls(s)} })
		p.post("started", func() Message { return Message{Text: startedWords(s, d.Reason)} })
	case roundtable.PhaseOpened:
		p.post(phaseKey(s.Position(), "open"), func() Message { return Message{Text: renderPhaseOpen(s, e.Time), Controls: phaseControls(s)} })
	case roundtable.MessagePosted:
		shown := channelViewer.May(s.Stage(), roundtable.Sight{Author: e.Actor, Round: d.Round, Phase: roundtable.PhaseMessage})
		if shown && !d.Private && !strings.HasPrefix(e.Key, keyTypedMessage) { // live mode: shown as it comes
			r := s.Rounds[d.Round-1]
			m := r.Messages[len(r.Messages)-1]
			p.message(d.Round, m)
		}
	case roundtable.PhaseClosed:
		pos := roundtable.Position{Round: d.Round, Phase: d.Phase}
		if now := s.Position(); now.Round == d.Round && now.Phase == d.Phase {
			pos = now // with the turn it closes, in a schedule that takes turns
		}
		p.edit(phaseKey(pos, "open"), "closed", func() Message {
			return Message{Text: fmt.Sprintf("**Round %d: %s phase** (closed)", d.Round, d.Phase)}
		})
		// Sealed messages are revealed at the close; messages taken in
		// turn were posted as they came.
		if d.Phase == roundtable.PhaseMessage && s.Config.Mode == roundtable.Sealed && !s.Stage().InTurn && d.Round >= 1 && d.Round <= len(s.Rounds) {
			for _, m := range s.Rounds[d.Round-1].For(channelViewer, s.Stage()).Messages {
				if m.Private {
					continue // seen by its author and addressees only
				}
				p.message(d.Round, m)
			}
		}
	case roundtable.PhaseExtended:
		p.post(phaseKey(s.Position(), fmt.Sprintf("extend/%d", e.Seq)), func() Message { return Message{Text: renderExtended(d, e.Time)} })
	case roundtable.DecisionMade:
		if d.Round >= 1 && d.Round <= len(s.Rounds) {
			p.post(fmt.Sprintf("r%d/result", d.Round), func() Message { return Message{Text: renderTally(s, s.Rounds[d.Round-1])} })
		}
	case roundtable.TableEnded:
		p.post("end", func() Message { return Message{Text: renderEnd(s)} })
		// The table is over: its Join and Status buttons go.
		p.edit("intro", "end", func() Message { return Message{Text: renderIntro(s, p.brief(s))} })
	}
}

// post emits the post under key; its message is rendered only if it was
// not delivered yet (a resumed table's history costs no rendering).
func (p *planner) post(key string, render func() Message) {
	if p.done(key) {
		return
	}
	m := render()
	m.Key, m.MaybeSent = p.table+"/"+key, p.reopened
	p.emit(intent{Table: p.table, Channel: p.channel, Key: key, Mark: key, Msg: m})
}

// message emits the post of a participant's message m of round.
func (p *planner) message(round int, m roundtable.Message) {
	p.post(fmt.Sprintf("r%d/msg/%d", round, m.Seq), func() Message { return messagePost(p.state, m) })
}

func (p *planner) edit(key, what string, render func() Message) {
	mark := key + "#" + what
	if p.done(mark) {
		return
	}
	m := render()
	m.Key = p.table + "/" + key // the edited post's key: an adapter may keep a mark of it
	p.emit(intent{Table: p.table, Channel: p.channel, Key: key, Mark: mark, Edit: true, Msg: m})
}

// introControls are the buttons of a table's intro; a waiting table also
// gets Start, for its organiser.
func introControls(s *roundtable.State) []Control {
	cs := []Control{{ID: ref{s.ID, 0, verbJoin}.String(), Kind: Button, Label: "Join", Primary: true},
		{ID: ref{s.ID, 0, verbRefresh}.String(), Kind: Button, Label: "Status"}}
	if seatsFull(s) {
		cs = cs[1:] // nobody else may join
	}
	if waiting(s) {
		cs = append(cs, Control{ID: StartAction(s.ID), Kind: Button, Label: "Start"})
	}
	return cs
}

// messagePost shows a participant's message: agents under their own name,
// people quoted by the bot.
func messagePost(s *roundtable.State, m roundtable.Message) Message {
	p, _ := s.Participant(m.From)
	var to []string
	for _, id := range m.To {
		q, _ := s.Participant(id)
		to = append(to, nameOr(q, id))
	}
	if p.Kind == roundtable.Bot {
		text := m.Text
		if len(to) > 0 {
			text = "(to " + joinNames(to) + ") " + text
		}
		return Message{Text: text, As: &Persona{Name: p.Name}}
	}
	return Message{Text: renderMessage(nameOr(p, m.From), m, to)}
}
