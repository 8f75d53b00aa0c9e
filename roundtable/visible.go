package roundtable

// Withheld stands, in a viewer's copy of a log (see Visible), for an event
// the viewer may not see yet: a sealed message, proposal, skip, ballot or
// failure of a phase that is still open, or someone else's survey answer.
// It keeps what everyone at the table can see anyway (who acted, and when)
// and drops what they said. Stored logs never hold it.
type Withheld struct {
	Type  string `json:"type"` // the withheld event's type
	Round int    `json:"round"`
	Phase Phase  `json:"phase"`
}

// EventType implements Payload.
func (Withheld) EventType() string { return "withheld" }

// secretBallot reports whether w stands for a ballot, which a secret-ballot
// table's copy of its log shows without its actor (SecretBallots).
func (w Withheld) secretBallot() bool {
	return w.Type == (BallotCast{}).EventType() || w.Type == (BallotRejected{}).EventType()
}

// Visible returns one table's log as viewer v may see it at the log's last
// event, by the rule of Viewer.May: an event v may not see yet becomes a
// Withheld event with the same sequence number, actor and time (so the
// result still replays), and private reasoning v may not see is blanked.
// Every path that shows or exports a table goes through it. The input is
// not modified.
func Visible(events []Event, v Viewer) []Event {
	g := StageOf(events)
	out := make([]Event, len(events))
	for i, e := range events {
		out[i] = v.event(g, e)
	}
	return out
}

// StageOf returns how far the table whose log is events has come.
func StageOf(events []Event) Stage {
	var g Stage
	for _, e := range events {
		switch d := e.Data.(type) {
		case TableCreated:
			g.Mode, g.InTurn = d.Config.WithDefaults().Mode, d.Config.Protocol.InTurn()
		case PhaseOpened:
			g.Round, g.Phase, g.Closed = d.Round, d.Phase, false
		case PhaseClosed:
			g.Closed = g.Closed || d.Round == g.Round && d.Phase == g.Phase
		case TableEnded:
			g.Ended = true
		}
	}
	return g
}

func (v Viewer) event(g Stage, e Event) Event {
	x, ok := sightOf(e)
	if !ok {
		return e
	}
	if !v.May(g, x) {
		e.Data, e.Key = Withheld{Type: e.Type(), Round: x.Round, Phase: x.Phase}, ""
		return e
	}
	if !v.May(g, x.reasoning()) {
		e.Data = withoutReasoning(e.Data)
	}
	return e
}

// reasoning is the sight of the reasoning that goes with x (a proposal's
// reasoning, a survey answer's reason, a message's model of self): its
// author's alone, and a researcher's once the table has ended; not an
// addressee's.
func (x Sight) reasoning() Sight {
	return Sight{Author: x.Author, Round: x.Round, Private: true}
}

// messageSight is the sight of a message: sealed until its message phase
// closes, or, a private message, its author's and its addressees'.
func messageSight(author string, round int, private bool, to []string) Sight {
	if private {
		return Sight{Author: author, Round: round, Phase: PhasePrivate, Private: true, To: to}
	}
	return Sight{Author: author, Round: round, Phase: PhaseMessage}
}

// sightOf returns what the rule needs to judge e, and false for events
// everyone at the table sees (phases, joins, decisions).
func sightOf(e Event) (Sight, bool) {
	x := Sight{Author: e.Actor}
	switch d := e.Data.(type) {
	case MessagePosted:
		x = messageSight(e.Actor, d.Round, d.Private, d.To)
	case ProposalMade:
		x.Round, x.Phase = d.Round, PhaseProposal
	case ProposalSkipped:
		x.Round, x.Phase = d.Round, PhaseProposal
	case BallotCast:
		x.Round, x.Phase = d.Round, PhaseVote
	case BallotRejected:
		x.Round, x.Phase = d.Round, PhaseVote
	case ActionFailed:
		x.Round, x.Phase = d.Round, d.Phase
	case SurveyAnswered:
		x.Round, x.Phase, x.Private = d.Round, PhaseSurvey, true
	default:
		return x, false
	}
	return x, true
}

func withoutReasoning(p Payload) Payload {
	switch d := p.(type) {
	case ProposalMade:
		d.Reasoning = ""
		return d
	case ProposalSkipped:
		d.Reasoning = ""
		return d
	case SurveyAnswered:
		d.Reason, d.Persona = "", nil
		return d
	case MessagePosted:
		d.Self, d.Persona = nil, nil
		return d
	}
	return p
}

// withheld folds a Withheld event: its actor acted, nothing more is known.
// A secret ballot has no actor: nobody is known to have acted.
func (s *State) withheld(actor string, d Withheld) {
	if actor != "" && d.Type != (BallotRejected{}).EventType() {
		s.acted(actor, nil)
	}
}
