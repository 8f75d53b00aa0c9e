package roundtable

import (
	"fmt"
	"slices"
)

// Part is something a participant does at a table: what the phases of
// its schedule ask of it. People play every part their table's schedule
// has; a bot may play fewer (the Facilitator speaks and, only when its
// organiser asks for it, votes), and says so where people choose and see
// it.
type Part string

// Parts, one per kind of phase.
const (
	PartSpeak   Part = "speaks"   // message and private-message phases
	PartPropose Part = "proposes" // proposal phases
	PartVote    Part = "votes"    // vote phases
	PartJudge   Part = "judges"   // survey phases
)

// AllParts are the parts in the order they are listed.
var AllParts = []Part{PartSpeak, PartPropose, PartVote, PartJudge}

// PartOf is the part phase p asks for.
func PartOf(p Phase) Part {
	switch p {
	case PhaseProposal:
		return PartPropose
	case PhaseVote:
		return PartVote
	case PhaseSurvey:
		return PartJudge
	}
	return PartSpeak
}

// Plays reports whether p plays part x: every part unless p.Parts lists
// some.
func (p Participant) Plays(x Part) bool {
	return len(p.Parts) == 0 || slices.Contains(p.Parts, x)
}

// PartsAt are the parts participant p plays at a table configured as c:
// the parts c's schedule has (a self-report survey included) that p
// plays, in AllParts order.
func (c Config) PartsAt(p Participant) []Part {
	var out []Part
	for _, x := range AllParts {
		if c.hasPart(x) && p.Plays(x) {
			out = append(out, x)
		}
	}
	return out
}

// hasPart reports whether c's schedule has a phase asking for x.
func (c Config) hasPart(x Part) bool {
	pr := c.Protocol
	if pr == nil {
		switch x {
		case PartSpeak, PartPropose, PartVote:
			return true
		}
		return c.Audit != nil && c.Audit.SelfReport // the self-report survey
	}
	for st := range pr.Steps() {
		if PartOf(st.Phase) == x {
			return true
		}
	}
	return x == PartJudge && c.Audit != nil && c.Audit.SelfReport
}

func checkParts(parts []Part) error {
	for _, x := range parts {
		if !slices.Contains(AllParts, x) {
			return Errorf(Invalid, "part %q is not one of %v", x, AllParts)
		}
	}
	return nil
}

// playsOpen reports whether participant id plays the open phase's part.
func (s *State) playsOpen(id string) bool {
	p, ok := s.Participant(id)
	return !ok || p.Plays(PartOf(s.Phase))
}

// noPart is the refusal of an action by a participant who does not play
// the open phase's part.
func (s *State) noPart(id string) error {
	p, _ := s.Participant(id)
	return Errorf(Forbidden, notYourTurn+"%s does not take part in the %s phase at this table", p.Name, s.Phase)
}

// voters is how many participants play the vote's part: the table's N
// for the rules that count everyone (vote.Profile.Participants).
func (s *State) voters() int {
	n := 0
	for _, p := range s.Participants {
		if p.Plays(PartVote) {
			n++
		}
	}
	return n
}

// String implements fmt.Stringer.
func (x Part) String() string { return string(x) }

var _ fmt.Stringer = PartSpeak
