package roundtable

import (
	"slices"

	"github.com/roundtable-ai/roundtable/roundtable/vote"
)

// Viewer is who looks at a table: a participant at it, an onlooker, or
// whoever may export it with names.
type Viewer struct {
	// Participant is the viewer's participant ID at the table; "" for
	// someone who is not seated (an onlooker, the operator).
	Participant string
	// Researcher marks whoever may export the table with names (its
	// organiser, a manager, the operator's CLI). Once the table has ended,
	// and only then, a researcher sees everyone's private reasoning. During
	// the table a researcher sees what anyone sees.
	Researcher bool
	// Organiser marks the organiser's export (the table's starter or a
	// manager exporting it, the operator's CLI): it holds everyone's
	// survey answers (self-reports) and private messages once their phase
	// has closed, which no other view shows (docs/protocol.md#visibility-and-sealing).
	Organiser bool
}

// Sight is one piece of a table's content as the visibility rule judges
// it: who wrote it, to whom, and which phase seals it.
type Sight struct {
	Author  string
	Round   int
	Phase   Phase // the phase until whose close it is sealed
	Private bool  // private reasoning, notes, survey answers and private messages: its author's alone
	// To are a private message's addressees, who read it as the table
	// reads a public message.
	To []string
}

// Stage is how far a table has come, as the visibility rule needs it.
type Stage struct {
	Mode Mode
	// InTurn says the table's messages go one speaker at a time
	// (Protocol.InTurn): they show as they come, as in live mode.
	InTurn bool
	Round  int
	Phase  Phase
	Closed bool // the phase has closed and the next has not opened
	Ended  bool
}

// Stage returns how far s has come.
func (s *State) Stage() Stage {
	return Stage{Mode: s.Config.Mode, InTurn: s.Config.Protocol.InTurn(), Round: s.Round, Phase: s.Phase, Closed: s.Closed, Ended: s.Status == StatusEnded}
}

// closed reports whether phase p of round r has closed at stage g.
func (g Stage) closed(r int, p Phase) bool {
	switch {
	case g.Ended || r < g.Round:
		return true
	case r > g.Round:
		return false
	case p < g.Phase:
		return true
	}
	return p == g.Phase && g.Closed
}

// May is the one visibility rule. Viewer v may see sight x at stage g when
//   - v wrote it (everyone sees their own messages, proposals, ballots and
//     reasoning at once), or
//   - the table has ended and v is a researcher (everything), or
//   - it is a survey answer or a private message, its phase has closed
//     and v is the organiser's export or the message's addressee, or
//   - it is not private reasoning and its phase has closed (a message of a
//     live-mode table, or of a schedule whose speakers take turns, shows
//     as it comes). A message addressed to some participants is still
//     everyone's to read (docs/protocol.md#message).
//
// So sealed messages show when their message phase closes, proposals when
// the proposal phase closes, ballots when the vote closes, and private
// reasoning, notes, survey answers and private messages never to other
// participants.
func (v Viewer) May(g Stage, x Sight) bool {
	if x.Private && v.Participant != "" && slices.Contains(x.To, v.Participant) {
		x.Private = false // an addressee
	}
	switch {
	case v.Participant != "" && v.Participant == x.Author:
		return true
	case v.Researcher && g.Ended:
		return true
	case x.Private && (x.Phase == PhaseSurvey || x.Phase == PhasePrivate):
		return v.Organiser && g.closed(x.Round, x.Phase)
	case x.Private:
		return false
	case x.Phase == PhaseMessage && (g.Mode == Live || g.InTurn):
		return true
	}
	return g.closed(x.Round, x.Phase)
}

// For returns round record r as viewer v may see it at stage g: messages
// and proposals v may not see yet are left out, and other participants'
// reasoning is blanked. The agents' prompt view (Table.View) is built
// with it.
func (r RoundRecord) For(v Viewer, g Stage) RoundRecord {
	r.Messages = slices.DeleteFunc(slices.Clone(r.Messages), func(m Message) bool {
		return !v.May(g, Sight{Author: m.From, Round: r.Round, Phase: PhaseMessage})
	})
	for i, m := range r.Messages {
		if (m.Self != nil || m.Persona != nil) && !v.May(g, Sight{Author: m.From, Round: r.Round, Phase: PhaseMessage, Private: true}) {
			r.Messages[i].Self, r.Messages[i].Persona = nil, nil
		}
	}
	r.Proposals = slices.DeleteFunc(slices.Clone(r.Proposals), func(p ProposalRecord) bool {
		return !v.May(g, Sight{Author: p.By, Round: r.Round, Phase: PhaseProposal})
	})
	for i, p := range r.Proposals {
		if !v.May(g, Sight{Author: p.By, Round: r.Round, Phase: PhaseProposal, Private: true}) {
			r.Proposals[i].Reasoning = ""
		}
	}
	r.Skipped = slices.DeleteFunc(slices.Clone(r.Skipped), func(id string) bool {
		return !v.May(g, Sight{Author: id, Round: r.Round, Phase: PhaseProposal})
	})
	r.Rejected = slices.DeleteFunc(slices.Clone(r.Rejected), func(x vote.Rejection) bool {
		return !v.May(g, Sight{Author: x.Voter, Round: r.Round, Phase: PhaseVote})
	})
	r.Failures = slices.DeleteFunc(slices.Clone(r.Failures), func(f Failure) bool {
		return !v.May(g, Sight{Author: f.Participant, Round: r.Round, Phase: f.Phase})
	})
	return r
}
