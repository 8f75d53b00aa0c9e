package bot

import (
	"fmt"
	"strings"

	"github.com/roundtable-ai/roundtable/roundtable"
)

// verbRead is the button of a vote whose candidates each person sees in
// an order of their own (roundtable.ParamOrder): it lists them, privately,
// in that order.
const verbRead = "read"

// shuffled reports whether s's votes show each person the candidates in
// an order of their own.
func shuffled(s *roundtable.State) bool {
	return s.Config.Protocol != nil && s.Config.Protocol.Params[roundtable.ParamOrder] == roundtable.OrderShuffled
}

// readControl is the button that lists the candidates in the presser's
// own order.
func readControl(s *roundtable.State) Control {
	return Control{ID: withVerb(ref{Table: s.ID, Round: s.Round}, verbRead), Kind: Button, Label: "Read the candidates", Primary: true}
}

// renderShuffledVote is a shuffled vote's post: the candidates are not
// listed in the thread, where everyone would read them in one order.
func renderShuffledVote(s *roundtable.State) string {
	return fmt.Sprintf("There are %d candidate statements. Press **Read the candidates** to read them in an order drawn for you alone "+
		"(so that no statement gains from being read first), then **Fill in your ballot** and rank them, best first. ", len(s.Candidates)) +
		s.Config.Rule.Describe() + "\nYou can change your ballot until the phase closes; the last valid one counts. " +
		"Whoever has not ranked when it closes is left out of this ranking."
}

// candidatesFor lists the open vote's candidates, privately, in the order
// drawn for participant id.
func candidatesFor(s *roundtable.State, id string) string {
	var b strings.Builder
	b.WriteString("The candidates, in the order drawn for you:\n")
	for _, c := range s.CandidatesFor(id) {
		tag := ""
		if c.Incumbent {
			tag = " (the current statement)"
		}
		fmt.Fprintf(&b, "**%s**%s: %s\n", c.ID, tag, c.Proposal.Text)
	}
	return b.String()
}

// renderMediatedPrivate is the private step of a mediated table: the
// opinion in the first round, then a critique of the current statement.
func renderMediatedPrivate(s *roundtable.State) string {
	if s.Decision == nil {
		return "Write your own opinion on the question with **Write private message**: only the mediator reads it, without your name, " +
			"and drafts the group's candidate statements from everyone's. Do not write it in this thread, which everyone reads."
	}
	return "The group's statement so far: " + quote(s.Decision.Proposal.Text) + "\nWrite your critique of it with **Write private message**: " +
		"what it gets wrong or leaves out for you. Only the mediator reads it, without your name, and revises the statement from the critiques. " +
		"Whoever has not written when the phase closes is left out of this step."
}

// leftOutWords names, after a mediated ranking, the people who had not
// ranked when it closed: they are left out of it.
func leftOutWords(s *roundtable.State, r roundtable.RoundRecord) string {
	voted := map[string]bool{}
	for _, b := range r.Tally.Ballots {
		voted[b.Voter] = true
	}
	var out []string
	for _, p := range s.Participants {
		if p.Plays(roundtable.PartVote) && !voted[p.ID] {
			out = append(out, p.Name)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "\nLeft out of this ranking (no ballot when it closed): " + strings.Join(out, ", ") + "."
}

// renderMediatorTurn is a mediated table's proposal step: the mediator
// writes the candidates from what people wrote privately; whoever wrote
// nothing in time is left out of the step.
func renderMediatorTurn(s *roundtable.State) string {
	what := "opinions"
	if s.Decision != nil {
		what = "critiques"
	}
	wrote := map[string]bool{}
	if r := s.Current(); r != nil {
		for _, m := range r.Messages {
			if m.Private {
				wrote[m.From] = true
			}
		}
	}
	var out []string
	for _, p := range s.Participants {
		if p.Plays(roundtable.PartSpeak) && !p.Mediates() && !wrote[p.ID] {
			out = append(out, p.Name)
		}
	}
	line := fmt.Sprintf("The mediator is writing candidate statements from %d %s, read without names.", len(wrote), what)
	if len(out) > 0 {
		line += " Left out of this step (nothing written in time): " + strings.Join(out, ", ") + "."
	}
	return line
}

// mediatedField words the private box of a mediated table: an opinion,
// or a critique of the statement (which the phase's post quotes).
func mediatedField(s *roundtable.State, f *Field) {
	switch {
	case !s.Config.Protocol.Mediated():
	case s.Decision == nil:
		f.Label, f.Placeholder = "Your opinion, for the mediator only", "What do you think, and why? Your name is not passed on."
	default:
		f.Label, f.Placeholder = "Your critique of the group's statement", "What does it get wrong or leave out for you?"
	}
}
